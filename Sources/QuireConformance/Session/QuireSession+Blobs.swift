import Foundation
import Quire

extension QuireSession {
    /// The steps on blobs saved, generated, read and damaged.
    func blobStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .blobCount:
            return .int(try QuireBlobs.count(in: current))
        case .saveBlob(let content, let contentType):
            let blob = Blob(contentType: contentType, data: Data(content.utf8))
            try current.saveBlob(blob: blob)
            return SpecValue(json: try JSONReader.parse(JSONWriter.bytes(JSONValue(any: blob.properties) ?? .null)))
        case .blobContent(let properties):
            guard let blob = try current.getBlob(properties: properties.mapValues { $0.jsonValue.anyValue }) else {
                return .null
            }
            return .string(String(decoding: try blob.readContent(), as: UTF8.self))
        case .generateBlob(let size, let seed, let contentType):
            return try QuireBlobs.generate(size: size, seed: seed, contentType: contentType, in: current)
        case .readBlob(let properties):
            return try QuireBlobs.read(properties, in: current)
        case .damageBlob(let digest):
            try QuireBlobs.damage(digest: digest, in: current)
            return nil
        default: throw EngineError.misrouted(step, to: "blobStep")
        }
    }
}
