import Foundation

/// Reads `given:` mappings (a file's and a case's) into a ``Given``.
enum GivenParser {
    /// Merges the file-level and case-level mappings (the case's keys win), substitutes
    /// vector variables, and reads the result.
    static func given(
        file fileNode: SpecNode?, case caseNode: SpecNode?, variables: [String: SpecValue],
        specDirectory: URL, location: SourceLocation
    ) throws -> Given {
        var merged: [String: (value: SpecValue, location: SourceLocation)] = [:]
        for node in [fileNode, caseNode].compactMap({ $0 }) {
            for entry in node.entries ?? [] { merged[entry.key] = (entry.value.value, entry.value.location) }
        }
        func value(_ key: String) throws -> (value: SpecValue, location: SourceLocation)? {
            guard let found = merged[key] else { return nil }
            do {
                return (try Template.substitute(found.value, with: variables), found.location)
            } catch let error as Template.Unresolved {
                throw SpecError("given.\(key): \(error)", at: found.location)
            }
        }
        var given = Given()
        if let database = try value("database")?.value.stringValue { given.database = database }
        if let collections = try value("collections")?.value.arrayValue {
            given.collections = collections.compactMap(\.stringValue).map(CollectionName.init(fullName:))
        }
        if let documents = try value("documents")?.value.arrayValue {
            given.documents = documents.compactMap { document in
                guard let id = document["id"]?.stringValue, let body = document["body"]?.objectValue else { return nil }
                let collection = document["collection"]?.stringValue.map(CollectionName.init(fullName:)) ?? .default
                return SeedDocument(DocumentReference(id, in: collection), properties: body)
            }
        }
        if let fixture = try value("fixture")?.value.stringValue {
            given.fixture = URL(fileURLWithPath: fixture, relativeTo: specDirectory).standardizedFileURL
        }
        if let clock = try value("clock") {
            given.clock = try self.clock(clock.value, at: clock.location)
        }
        if let options = try value("options")?.value.objectValue { given.options = options }
        return given
    }

    private static func clock(_ value: SpecValue, at location: SourceLocation) throws -> ClockSetting {
        if value == "system" { return .system }
        if value == "manual" { return .manual(start: ClockSetting.defaultManualStart) }
        guard let text = value["manual"]?.stringValue else {
            throw SpecError("clock must be system, manual or {manual: ISO-8601 time}, not \(value)", at: location)
        }
        guard let date = ISO8601.date(from: text) else {
            throw SpecError(
                "clock start \(JSONText.quote(text)) is not an ISO-8601 time such as 2025-01-01T00:00:00Z", at: location
            )
        }
        return .manual(start: date)
    }
}

/// ISO-8601 times as spec files write them, with or without fractional seconds.
enum ISO8601 {
    static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
