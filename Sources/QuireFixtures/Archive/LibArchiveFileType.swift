/// File-type bits as libarchive reports them (`AE_IF*`, whose macros do not import into Swift).
package enum LibArchiveFileType {
    package static let mask: UInt32 = 0o170000
    package static let regular: UInt32 = 0o100000
    package static let directory: UInt32 = 0o040000
    package static let symbolicLink: UInt32 = 0o120000
    package static let socket: UInt32 = 0o140000
    package static let characterDevice: UInt32 = 0o020000
    package static let blockDevice: UInt32 = 0o060000
    package static let fifo: UInt32 = 0o010000
}
