import Foundation

extension QueryResult {
    /// Decodes the row as `T`: each property from the column of its name, or, with
    /// `dataKey`, from the object in that column when the row has no such column (for
    /// `SELECT meta().id AS id, * FROM _`, `dataKey` is `"_"`, the collection's alias).
    ///
    /// A model read from a query can be saved when the query selects its ID
    /// (`meta().id AS id`); the save works on the document's current revision.
    ///
    /// - Throws: ``QuireError/Code/invalidQuery`` when a column the type needs is missing
    ///   (the query did not select it); ``QuireError/Code/decodingError`` when a value is of
    ///   another kind; both name the key path.
    public func data<T: Decodable>(as type: T.Type, dataKey: String? = nil) throws -> T {
        let data = dataKey.flatMap { value(forKey: $0) as? DictionaryObject }
        do {
            return try T(from: DocumentValueDecoder(top: .result(self, data: data)))
        } catch let error as QuireError {
            throw QuireError(error.code, "query result does not decode as \(T.self): \(error.message)")
        } catch {
            throw QuireError(.decodingError, "query result does not decode as \(T.self): \(error)")
        }
    }
}

extension ResultSet {
    /// Decodes the rows not read yet, each as ``QueryResult/data(as:dataKey:)`` does.
    ///
    /// - Throws: as ``QueryResult/data(as:dataKey:)``, for the first row that fails.
    public func data<T: Decodable>(as type: T.Type, dataKey: String? = nil) throws -> [T] {
        var models: [T] = []
        while let row = next() { models.append(try row.data(as: type, dataKey: dataKey)) }
        return models
    }
}
