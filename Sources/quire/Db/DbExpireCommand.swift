import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db expire DATABASE ID (DATE | --in DURATION | --clear) [-c COLLECTION] [--json]`.
struct DbExpireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expire",
        abstract: "Set or clear when a document expires (is purged).",
        discussion: """
            DATE is ISO 8601 (2030-01-01T00:00:00Z); --in takes a number with s, m, h or d \
            (90m, 1h, 7d). An expired document is purged by the database's housekeeping. --json \
            prints the id, the collection and the expiration (ISO 8601, or null).

            Example:
              quire db expire travel.quire hotel_1 --in 1h -c inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The document ID.")
    var id: String

    @Argument(help: "When it expires, in ISO 8601.")
    var date: String?

    @Option(name: .customLong("in"), help: "Expire after this long from now: a number with s, m, h or d.")
    var after: String?

    @Flag(help: "Remove the expiration.")
    var clear = false

    @OptionGroup var collection: DbCollectionOption

    @Flag(help: "Print the outcome as JSON.")
    var json = false

    func validate() throws {
        guard [date != nil, after != nil, clear].filter({ $0 }).count == 1 else {
            throw ValidationError("Give exactly one of DATE, --in DURATION or --clear.")
        }
        // Checked here, so a bad value prints this subcommand's usage.
        _ = try expiration(from: Date())
    }

    func run() throws {
        let when = try expiration(from: Date())
        let name = try target.with { database in
            let source = try collection.collection(in: database)
            guard try source.document(id: id) != nil else {
                throw CommandFailure("\(source.fullName) has no document '\(id)'")
            }
            try source.setDocumentExpiration(id: id, expiration: when)
            return source.fullName
        }
        let text = when.map { ISO8601DateFormatter().string(from: $0) }
        if json {
            try CommandOutput.json(
                .object([
                    "id": .string(id), "collection": .string(name), "expiration": text.map(JSONValue.string) ?? .null,
                ]))
        } else {
            CommandOutput.write(text.map { "\(id) expires at \($0)\n" } ?? "\(id) no longer expires\n")
        }
    }

    /// When the document is to expire (nil: never), `now` being the time of the command.
    private func expiration(from now: Date) throws -> Date? {
        if let date {
            let formatter = ISO8601DateFormatter()
            var parsed = formatter.date(from: date)
            if parsed == nil {
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                parsed = formatter.date(from: date)
            }
            guard let parsed else {
                throw ValidationError("'\(date)' is not an ISO 8601 date such as 2030-01-01T00:00:00Z.")
            }
            return parsed
        }
        if let after { return now.addingTimeInterval(try Self.seconds(after)) }
        return nil
    }

    /// The seconds of a duration such as `90s`, `15m`, `1h` or `7d`.
    static func seconds(_ text: String) throws -> TimeInterval {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let last = text.last, let unit = units[last], let number = Double(text.dropLast()), number > 0,
            number.isFinite
        else {
            throw ValidationError("'\(text)' is not a duration such as 90s, 15m, 1h or 7d.")
        }
        return number * unit
    }
}
