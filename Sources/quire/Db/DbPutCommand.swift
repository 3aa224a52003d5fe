import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db put DATABASE ID JSON|@FILE [-c COLLECTION] [--create-only | --update-only] [--json]`.
struct DbPutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Save a document from JSON text or a file.",
        discussion: """
            The body replaces the current one as a new revision. @FILE reads the body from FILE, \
            @- from standard input. --create-only fails when the document exists, --update-only \
            when it does not.

            Example:
              quire db put travel.quire h1 '{"name": "Le Monde", "city": "Paris"}'
              quire db put travel.quire h2 @h2.json -c inventory.hotel --create-only
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The document ID.")
    var id: String

    @Argument(help: "The body: a JSON object, @FILE, or @- for standard input.")
    var body: String

    @OptionGroup var collection: DbCollectionOption

    @Flag(help: "Fail when the document exists.")
    var createOnly = false

    @Flag(help: "Fail when the document does not exist.")
    var updateOnly = false

    @Flag(help: "Print the saved revision as JSON.")
    var json = false

    func validate() throws {
        if createOnly, updateOnly { throw ValidationError("--create-only and --update-only do not go together.") }
    }

    func run() throws {
        let text = try Self.text(of: body)
        do {
            guard case .object(let properties) = try JSONReader.parse(text) else {
                throw CommandFailure("The body for '\(id)' is not a JSON object")
            }
            // CouchDB's inline attachments would be stored as a plain property that no
            // replicator pushes as an attachment: refused, with the way blobs come in.
            if properties["_attachments"] != nil {
                throw CommandFailure(
                    "The body for '\(id)' has _attachments (CouchDB's inline attachments), which quire db put does not store: attachments are blobs in Quire; put them in with `quire db import` of a dataset whose Attachments folder holds them, or from an app with Blob"
                )
            }
        } catch let error as QuireError {
            throw CommandFailure("The body for '\(id)' is not valid JSON: \(error.message)")
        }
        let saved = try target.with { database -> Document in
            let destination = try collection.collection(in: database)
            let existing = try destination.document(id: id)
            if createOnly, existing != nil {
                throw CommandFailure("Document '\(id)' already exists in \(destination.fullName)")
            }
            if updateOnly, existing == nil {
                throw CommandFailure("\(destination.fullName) has no document '\(id)' to update")
            }
            let document = try existing.map { try $0.toMutable().setJSON(text) } ?? MutableDocument(id: id, json: text)
            guard try destination.save(document: document, concurrencyControl: .failOnConflict) else {
                throw CommandFailure("Document '\(id)' changed while it was being saved; nothing was written")
            }
            return document
        }
        if json {
            try CommandOutput.json(.object(["id": .string(id), "rev": .string(saved.revisionID ?? "")]))
        } else {
            CommandOutput.write("Saved \(id) as \(saved.revisionID ?? "")\n")
        }
    }

    /// The JSON text `argument` gives: itself, or a file's content for `@FILE` (`@-` for standard input).
    static func text(of argument: String) throws -> String {
        guard argument.hasPrefix("@") else { return argument }
        let path = String(argument.dropFirst())
        if path == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("Cannot read the file \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
