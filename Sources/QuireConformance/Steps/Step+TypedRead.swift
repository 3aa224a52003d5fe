extension Step {
    /// The typed getters a `getValue` step can call, named as in spec files.
    package enum ValueType: String, Sendable, Hashable, CaseIterable {
        /// `int(forKey:)`: an integer, 0 when missing.
        case int
        /// `int64(forKey:)`: a 64-bit integer, 0 when missing.
        case int64
        /// `double(forKey:)`: a number, 0.0 when missing.
        case double
        /// `float(forKey:)`: a number, 0.0 when missing.
        case float
        /// `boolean(forKey:)`: a boolean, false when missing.
        case boolean
        /// `string(forKey:)`: text or null.
        case string
        /// `date(forKey:)`: the date as the store writes dates (ISO-8601 UTC with
        /// milliseconds), or null.
        case date
        /// `array(forKey:)`: the array or null.
        case array
        /// `dictionary(forKey:)`: the mapping or null.
        case dictionary
        /// `blob(forKey:)`: the blob's properties or null.
        case blob
        /// `number(forKey:)`: a number (booleans as 0 or 1) or null.
        case number
    }

    /// The arguments of `getValue`.
    package struct TypedRead: Sendable, Hashable {
        /// The document read.
        package var document: DocumentReference
        /// The top-level key.
        package var key: String
        /// The getter.
        package var type: ValueType

        /// Makes typed-read arguments.
        package init(document: DocumentReference, key: String, type: ValueType) {
            self.document = document
            self.key = key
            self.type = type
        }
    }
}
