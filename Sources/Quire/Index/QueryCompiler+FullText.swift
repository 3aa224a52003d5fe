/// The text a full-text index holds for an indexed expression.
extension QueryCompiler {
    /// SQL for the text of `expression` over `<prefix>body` as LiteCore's `fl_fts_value` makes
    /// it: a string as it is, a number as its digits, a boolean as `T` or `F` (searchable so),
    /// null and MISSING as nothing, and an array or a dictionary as the scalars found anywhere
    /// inside it, separated by spaces: the values only, never a dictionary's keys (FTSTest.cc
    /// "Test with Dictionary Values", "Test with array values", "Test with non-string values").
    static func fullTextValue(_ expression: PlanExpression, prefix: String = "") throws -> String {
        let compiler = QueryCompiler(mode: .index(prefix: prefix))
        compiler.sources = [SourceRef(alias: "", sqlAlias: "", collection: nil, table: "", isLeftJoined: false)]
        let value = try compiler.value(expression)
        let type = try compiler.type(expression)
        let scalars =
            "(SELECT group_concat(CASE t.type WHEN 'true' THEN 'T' WHEN 'false' THEN 'F' ELSE t.atom END, ' ')"
            + " FROM json_tree(\(value)) AS t WHERE t.type NOT IN ('object', 'array', 'null'))"
        return
            "CASE \(type) WHEN 'true' THEN 'T' WHEN 'false' THEN 'F' WHEN 'null' THEN NULL"
            + " WHEN 'object' THEN \(scalars) WHEN 'array' THEN \(scalars) ELSE \(value) END"
    }

    /// A full-text query with its column filters on a property path quoted for FTS5, whose
    /// barewords cannot hold a `.`: `contact.address.street:Santa` searches the column of that
    /// property, as in LiteCore (c4QueryTest "C4Query FTS multiple properties"). Text in double
    /// quotes is left as it is.
    static func fullTextQueryText(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        var index = 0
        var quoted = false
        func isWord(_ character: Character) -> Bool {
            character.isASCII && (character.isLetter || character.isNumber || character == "_")
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\"" { quoted.toggle() }
            guard !quoted, isWord(character), !character.isNumber,
                index == 0 || !(isWord(characters[index - 1]) || characters[index - 1] == ".")
            else {
                result.append(character)
                index += 1
                continue
            }
            var end = index
            while end < characters.count && (isWord(characters[end]) || characters[end] == ".") { end += 1 }
            let word = String(characters[index..<end])
            var colon = end
            while colon < characters.count && characters[colon] == " " { colon += 1 }
            let isFilter =
                colon < characters.count && characters[colon] == ":" && word.contains(".")
                && !word.hasSuffix(".") && !word.contains("..")
            result += isFilter ? "\"\(word)\"" : word
            index = end
        }
        return result
    }
}
