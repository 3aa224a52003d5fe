import CQuireFTS

/// Revision IDs, `<generation>-<suffix>`: the rules every revision ID Quire stores follows,
/// and the making of new ones.
///
/// Quire makes `<generation>-<40 hex digits>`: the digest covers the parent revision ID, the
/// deletion flag and the canonical JSON body (keys sorted), separated by NUL bytes, so equal
/// edits of equal parents give equal IDs on every device, as CouchDB's deterministic
/// revisions do.
///
/// IDs from elsewhere (replication, `new_edits=false`) are accepted when ``parse(_:)`` reads
/// them: a generation of 1 to ``maximumGeneration`` in decimal digits without a sign or a
/// leading zero, a `-`, and a suffix of 1 to ``maximumSuffixLength`` printable ASCII
/// characters other than `,` (stored ancestry is comma-separated). The bound on the
/// generation is LiteCore's: `revidBuffer::tryParse` in couchbase-lite-core's
/// `LiteCore/RevTrees/RevID.cc` refuses a generation of 0 or above `UINT_MAX`
/// (2^32 − 1) with `BadRevisionID`. CouchDB's `couch_doc:parse_rev` reads the generation as
/// an unbounded Erlang integer and answers 400 `bad_request` ("Invalid rev format") only for
/// text that is not `<integer>-<suffix>`; a bound is needed here because the next
/// generation is computed in a fixed-width integer. A document whose current revision is at
/// the maximum generation can still be read, replicated and purged, but not edited.
package enum RevisionID {
    /// The highest generation a revision ID may have: 4,294,967,295 (2^32 − 1), as in
    /// LiteCore.
    package static let maximumGeneration = Int(UInt32.max)

    /// The longest suffix (the part after the `-`), in bytes.
    package static let maximumSuffixLength = 128

    /// The generation and suffix of a well-formed revision ID, or nil (see ``RevisionID``).
    package static func parse(_ revisionID: String) -> (generation: Int, suffix: Substring)? {
        let utf8 = revisionID.utf8
        guard let dash = utf8.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let digits = utf8[..<dash]
        // At most 10 digits: 4294967295 has 10, and the value is checked below.
        guard let first = digits.first, first != UInt8(ascii: "0"), digits.count <= 10 else { return nil }
        var generation = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            generation = generation * 10 + Int(digit - UInt8(ascii: "0"))
        }
        guard generation <= maximumGeneration else { return nil }
        let suffix = revisionID[utf8.index(after: dash)...]
        guard isValidSuffix(suffix) else { return nil }
        return (generation, suffix)
    }

    /// Whether `suffix` may follow the `-` of a revision ID.
    package static func isValidSuffix(_ suffix: Substring) -> Bool {
        !suffix.isEmpty && suffix.utf8.count <= maximumSuffixLength
            && suffix.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }
    }

    /// Checks a revision ID that came from elsewhere; ``QuireError/Code/badRevisionID``
    /// naming the document and what is wrong.
    package static func validate(_ revisionID: String, documentID: String) throws {
        guard parse(revisionID) == nil else { return }
        throw QuireError(.badRevisionID, invalidMessage(revisionID, documentID: documentID))
    }

    /// The message for a revision ID ``parse(_:)`` refuses.
    static func invalidMessage(_ revisionID: String, documentID: String) -> String {
        var problem = "expected '<generation>-<suffix>'"
        if let dash = revisionID.firstIndex(of: "-"), !revisionID[..<dash].isEmpty,
            revisionID[..<dash].allSatisfy({ $0.isASCII && $0.isNumber }), revisionID[..<dash].first != "0"
        {
            problem = "the generation must be at most \(maximumGeneration)"
        }
        return "invalid revision ID '\(revisionID.prefix(80))' for document '\(documentID.prefix(80))': \(problem)"
    }

    /// The ID of a new revision of document `documentID` whose parent is `parent` (nil for
    /// a first revision). ``QuireError/Code/badRevisionID`` when the parent is at
    /// ``maximumGeneration``: the document cannot have another revision.
    ///
    /// The same error when the parent is not a revision ID ``parse(_:)`` reads (one stored by
    /// a Quire that checked less, such as `9223372036854775807-abc`): its next generation is
    /// unknown.
    static func make(parent: String?, deleted: Bool, canonicalBody: [UInt8], documentID: String) throws -> String {
        try canonicalBody.withUnsafeBytes {
            try make(parent: parent, deleted: deleted, canonicalBody: $0, documentID: documentID)
        }
    }

    /// ``make(parent:deleted:canonicalBody:documentID:)`` over bytes held elsewhere (the text
    /// a document was made from, when it is canonical already).
    static func make(
        parent: String?, deleted: Bool, canonicalBody: UnsafeRawBufferPointer, documentID: String
    ) throws -> String {
        var parentGeneration = 0
        if let parent {
            guard let parsed = parse(parent) else {
                throw QuireError(
                    .badRevisionID,
                    "document '\(documentID.prefix(80))' has the revision ID '\(parent.prefix(80))', which is out of range or malformed: it cannot be changed, only purged"
                )
            }
            parentGeneration = parsed.generation
        }
        guard parentGeneration < maximumGeneration else {
            throw QuireError(
                .badRevisionID,
                "document '\(documentID.prefix(80))' is at revision generation \(parentGeneration), the highest a revision ID may have (\(maximumGeneration)): it cannot be changed, only purged"
            )
        }
        // `<generation>-<40 hex digits>`, written once into the string's own storage.
        let generation = parentGeneration + 1
        var digitCount = 1
        var power = 10
        while power <= generation {
            digitCount += 1
            power *= 10
        }
        return String(unsafeUninitializedCapacity: digitCount + 41) { buffer in
            var rest = generation
            for index in stride(from: digitCount - 1, through: 0, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer[digitCount] = UInt8(ascii: "-")
            let hex = buffer.baseAddress! + digitCount + 1
            writeDigestHex(parent: parent, deleted: deleted, canonicalBody: canonicalBody, to: hex)
            return digitCount + 41
        }
    }

    /// Writes the 40 hex digits of SHA-1 over the parent revision ID, `\0`, the deletion flag,
    /// `\0` and the canonical body to `hex`: in C without allocating where the processor has
    /// the instructions it uses (``quire_revision_digest_hex``), else with ``SHA1``.
    private static func writeDigestHex(
        parent: String?, deleted: Bool, canonicalBody: UnsafeRawBufferPointer, to hex: UnsafeMutablePointer<UInt8>
    ) {
        var parent = parent ?? ""
        let body = canonicalBody.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let written = parent.withUTF8 { parent in
            quire_revision_digest_hex(
                parent.baseAddress, parent.count, deleted ? 1 : 0, body, canonicalBody.count, hex)
        }
        if written != 0 { return }
        var hasher = SHA1()
        parent.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: (UInt8(0), UInt8(deleted ? 1 : 0), UInt8(0))) { hasher.update($0) }
        hasher.update(canonicalBody)
        let words = hasher.finalizeWords()
        let digits: StaticString = "0123456789abcdef"
        var count = 0
        for word in [words.0, words.1, words.2, words.3, words.4] {
            var shift: UInt32 = 28
            while true {
                hex[count] = digits.utf8Start[Int((word >> shift) & 0xF)]
                count += 1
                if shift == 0 { break }
                shift -= 4
            }
        }
    }

    /// The generation of a revision ID (0 for nil or an ID ``parse(_:)`` refuses).
    static func generation(of revisionID: String?) -> Int {
        guard let revisionID else { return 0 }
        return parse(revisionID)?.generation ?? 0
    }
}
