import Foundation
import Quire

/// Everything a checkpoint ID is made from: which local database (its private UUID), which
/// remote, which collection, and the options that change what is pulled.
///
/// Client-side filter closures are not part of it (they cannot be compared), as in
/// Couchbase Lite. Channels and document IDs are sets: their order and repeats change
/// nothing that is synced, so they are sorted and deduplicated.
package struct CheckpointInputs: Sendable, Hashable {
    /// The local database's private UUID the ID was made with.
    package var uuid: String
    /// The remote database's URL, normalised.
    package var remoteURL: NormalizedURL
    /// The collection's full name, `scope.collection`.
    package var collection: String
    /// The channels pulled, sorted; empty for all.
    package var channels: [String]
    /// The server-side filter's name, if any.
    package var filter: String?
    /// The server-side filter's parameters.
    package var filterParameters: [String: String]
    /// The document IDs replicated, sorted; empty for all.
    package var documentIDs: [String]

    /// Makes the inputs, normalising channels and document IDs.
    package init(
        uuid: String, remoteURL: NormalizedURL, collection: String, channels: [String] = [], filter: String? = nil,
        filterParameters: [String: String] = [:], documentIDs: [String] = []
    ) {
        self.uuid = uuid
        self.remoteURL = remoteURL
        self.collection = collection
        self.channels = Array(Set(channels)).sorted()
        self.filter = filter.flatMap { $0.isEmpty ? nil : $0 }
        self.filterParameters = filterParameters
        self.documentIDs = Array(Set(documentIDs)).sorted()
    }

    /// The checkpoint ID: `cp-` and the hex SHA-1 of the inputs written as canonical JSON
    /// (sorted keys, no spaces).
    package var checkpointID: String {
        let bytes = (try? JSONWriter.bytes(.object(hashedFields))) ?? []
        return "cp-" + DigestText.hex(SHA1.hash(data: bytes))
    }

    /// The fields the ID hashes; checkpoint documents carry the same ones.
    var hashedFields: JSONObject {
        var fields = recordedFields
        fields["uuid"] = .string(uuid)
        return fields
    }

    /// The inputs other than the UUID, as stored in checkpoint documents.
    var recordedFields: JSONObject {
        [
            "replication_id_version": .int(Int64(QuireSync.replicationIDVersion)),
            "remote_url": .string(remoteURL.description),
            "collection": .string(collection),
            "channels": .array(channels.map { .string($0) }),
            "filter": filter.map { .string($0) } ?? .null,
            "filter_params": .object(filterParameters.mapValues { .string($0) }),
            "doc_ids": .array(documentIDs.map { .string($0) }),
        ]
    }

    /// The same inputs with another UUID (to look for a checkpoint made before a copy).
    func with(uuid: String) -> CheckpointInputs {
        var copy = self
        copy.uuid = uuid
        return copy
    }

    /// Reads the inputs a checkpoint document records; nil when it does not record them all.
    init?(recordedIn document: JSONObject) {
        guard let uuid = document["uuid"]?.stringValue,
            let urlText = document["remote_url"]?.stringValue, let url = try? NormalizedURL(string: urlText),
            let collection = document["collection"]?.stringValue,
            let channels = document["channels"]?.arrayValue?.compactMap(\.stringValue),
            let params = document["filter_params"]?.objectMembers,
            let documentIDs = document["doc_ids"]?.arrayValue?.compactMap(\.stringValue)
        else { return nil }
        self.init(
            uuid: uuid, remoteURL: url, collection: collection, channels: channels,
            filter: document["filter"]?.stringValue,
            filterParameters: params.dictionary.compactMapValues(\.stringValue), documentIDs: documentIDs)
    }
}
