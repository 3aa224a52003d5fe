import Quire

/// `save: {object: d1, conflictHandler: ...}` on the Quire engine: the held document saved
/// through `save(document:conflictHandler:)`, the handler doing what the spec chose.
enum QuireConflictSave {
    /// Saves `document` into `collection`; returns `{saved, calls, theirs, document}`: whether
    /// it was saved, how many times the handler ran (0 without a conflict), the stored
    /// document's properties the handler was given last (null when deleted, or never called),
    /// and the held object's state afterwards.
    static func save(
        _ document: MutableDocument, in collection: Collection, choice: Step.ConflictChoice,
        state: (Document) throws -> SpecValue
    ) throws -> SpecValue {
        var calls = 0
        var theirs: SpecValue = .null
        let saved = try collection.save(document: document) { mine, stored in
            calls += 1
            theirs = try stored.map { try properties(of: $0) } ?? .null
            switch choice {
            case .keepMine:
                return true
            case .keepTheirs:
                guard let stored else { return false }
                mine.setData(stored.toDictionary())
                return true
            case .merge(let keys):
                for key in keys {
                    if let value = stored?.value(forKey: key) {
                        mine.setValue(value, forKey: key)
                    } else {
                        mine.removeValue(forKey: key)
                    }
                }
                return true
            case .cancel:
                return false
            case .script(let script):
                if calls == 1, !script.firstCallSaves.isEmpty, let stored {
                    // Another writer changes the document while the handler decides.
                    let other = stored.toMutable()
                    for (key, value) in script.firstCallSaves { other.setValue(value.jsonValue.anyValue, forKey: key) }
                    try collection.save(document: other)
                }
                for key in script.merge {
                    if let value = stored?.value(forKey: key) {
                        mine.setValue(value, forKey: key)
                    } else {
                        mine.removeValue(forKey: key)
                    }
                }
                if script.addTheirs, let stored {
                    for key in stored.keys where !mine.contains(key: key) {
                        mine.setValue(stored.value(forKey: key), forKey: key)
                    }
                }
                for (key, value) in script.set { mine.setValue(value.jsonValue.anyValue, forKey: key) }
                return true
            }
        }
        return .object([
            "saved": .bool(saved), "calls": .int(calls), "theirs": theirs, "document": try state(document),
        ])
    }

    private static func properties(of document: Document) throws -> SpecValue {
        SpecValue(json: try JSONReader.parse(document.toJSON()))
    }
}
