/// File-type bits as libarchive reports them (`AE_IF*`, whose macros do not import into Swift).
enum LibArchiveFileType {
    static let mask: UInt32 = 0o170000
    static let regular: UInt32 = 0o100000
    static let directory: UInt32 = 0o040000
    static let symbolicLink: UInt32 = 0o120000
    static let socket: UInt32 = 0o140000
    static let characterDevice: UInt32 = 0o020000
    static let blockDevice: UInt32 = 0o060000
    static let fifo: UInt32 = 0o010000
}
