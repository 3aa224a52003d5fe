/// What a function's instructions are spent on, told from its (demangled) name and the
/// object file it lives in. The first group that claims a function gets it.
enum FunctionGroup: String, CaseIterable {
    case sqlite = "SQLite (its own code: B-trees, VDBE, JSON functions, FTS5)"
    case compression = "zlib and libarchive (zip)"
    case allocation = "Allocation (malloc, free, Swift object allocation)"
    case locks = "Locks (mutexes, NSLock, futexes)"
    case referenceCounting = "Reference counting and exclusivity checks"
    case dynamicCasts = "Dynamic casts (`as?` to protocols and types)"
    case digests = "Digests (SHA-1, SHA-256)"
    case jsonParsing = "JSON parsing (JSONParser, JSONTape)"
    case jsonWriting = "Canonical JSON writing (JSONEmitter, JSONWriter)"
    case pathLookup = "Path lookups in stored JSON (quire_extract, quire_type)"
    case resultBuilding = "Query result building (CompiledQuery, QueryResult, ResultSet)"
    case strings = "Swift strings (UTF-8 validation, comparison, bridging)"
    case collections = "Swift arrays, dictionaries and hashing"
    case memory = "Memory copies and comparisons (memcpy, memcmp)"
    case foundation = "Foundation"
    case system = "C library and kernel calls (other)"
    case swiftRuntime = "Swift runtime (other)"
    case quire = "Quire, GRDB and benchmark code (other)"

    /// The group of function `name` from `object` (a path, possibly empty).
    static func of(function name: String, object: String) -> FunctionGroup {
        if object.contains("libsqlite3") || name.hasPrefix("sqlite3") { return .sqlite }
        if object.contains("libz.so") || object.contains("libarchive") { return .compression }
        if matches(name, allocationNames) { return .allocation }
        if matches(name, lockNames) { return .locks }
        if matches(
            name,
            [
                "swift_retain", "swift_release", "swift_bridgeObjectRe", "swift_unknownObjectRe",
                "swift_nonatomic_re", "_swift_release_dealloc", "swift_isUniquelyReferenced",
                "swift_beginAccess", "swift_endAccess", "AccessSet", "RefCounts",
            ])
        {
            return .referenceCounting
        }
        if matches(
            name,
            [
                "tryCast", "swift_dynamicCast", "conformsToProtocol", "swift_conformsTo",
                "ConformanceCache", "swift_getAssociatedConformanceWitness",
            ])
        {
            return .dynamicCasts
        }
        if matches(
            name,
            ["SHA1", "SHA256", "MD5", "sha1_block", "sha256_block", "md5_block", "DigestText.", "RevisionID.make"])
        {
            return .digests
        }
        if matches(name, ["JSONReader", "JSONParser", "JSONTape", "JSONLinesReader"]) { return .jsonParsing }
        if matches(name, ["JSONWriter", "JSONEmitter"]) { return .jsonWriting }
        // quire_path.c; its static helpers have names of their own.
        if matches(name, ["quire_extract", "quire_type", "skip_value", "skip_string", "answer_by_sqlite", "is_real"])
            || name == "lookup" || name == "read_integer" || name == "read_index"
        {
            return .pathLookup
        }
        if matches(
            name,
            [
                "CompiledQuery", "QueryResult", "ResultSet", "DictionaryObject.present", "TypedValue",
                "Query.execute",
            ])
        {
            return .resultBuilding
        }
        if matches(
            name,
            [
                "String", "_StringGuts", "_StringObject", "_allASCII", "UTF8", "UTF16", "Unicode",
                "Substring", "_stringCompare", "Character", "_swift_stdlib_",
            ])
        {
            return .strings
        }
        if matches(
            name,
            [
                "Array", "Dictionary", "Set<", "_NativeSet", "_NativeDictionary", "Hasher", "SipHash",
                "_HashTable", "_ArrayBuffer", "_ContiguousArrayBuffer",
            ])
        {
            return .collections
        }
        if matches(name, ["memcpy", "memmove", "memset", "memcmp", "__memcmp", "strlen", "bcmp"]) { return .memory }
        if object.contains("Foundation") || object.contains("libdispatch") || object.contains("libBlocksRuntime") {
            return .foundation
        }
        if object.contains("libc.so") || object.contains("ld-linux") || object.contains("libm.so") { return .system }
        if object.contains("libswift") { return .swiftRuntime }
        return .quire
    }

    private static let allocationNames = [
        "malloc", "free", "_int_malloc", "_int_free", "realloc", "_int_realloc", "calloc", "unlink_chunk",
        "tcache", "swift_allocObject", "swift_deallocObject", "swift_slowAlloc", "swift_slowDealloc",
        "swift_deallocClassInstance", "sysmalloc", "alloc_perturb", "_int_memalign", "posix_memalign",
    ]

    private static let lockNames = [
        "pthread_mutex", "__lll_lock", "__lll_unlock", "NSLock", "os_unfair_lock", "pthread_rwlock", "futex",
        "Locked.", "pthread_cond",
    ]

    private static func matches(_ name: String, _ needles: [String]) -> Bool {
        needles.contains { name.contains($0) }
    }
}
