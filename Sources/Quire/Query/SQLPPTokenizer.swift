/// Splits SQL++ text into tokens, remembering each token's character offset so that errors
/// can say where they are.
struct SQLPPTokenizer {
    private let characters: [Character]
    private let source: String
    private var index = 0

    init(_ text: String) {
        source = text
        characters = Array(text)
    }

    /// Every token of the text, ending with `.end`.
    static func tokenize(_ text: String) throws -> [SQLPPToken] {
        var tokenizer = SQLPPTokenizer(text)
        var tokens: [SQLPPToken] = []
        while true {
            let token = try tokenizer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    /// `line L, column C` (both from 1) for a character offset.
    static func position(of offset: Int, in text: String) -> String {
        var line = 1
        var column = 1
        for (index, character) in text.enumerated() {
            if index == offset { break }
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return "line \(line), column \(column) (offset \(offset))"
    }

    private func error(_ offset: Int, _ detail: String) -> QuireError {
        QuireError(.invalidQuery, "invalid SQL++ at \(SQLPPTokenizer.position(of: offset, in: source)): \(detail)")
    }

    private var current: Character? { index < characters.count ? characters[index] : nil }

    private func peek(_ ahead: Int = 1) -> Character? {
        index + ahead < characters.count ? characters[index + ahead] : nil
    }

    private mutating func next() throws -> SQLPPToken {
        skipSpaceAndComments()
        let start = index
        guard let character = current else { return SQLPPToken(kind: .end, offset: start, text: "") }
        func token(_ kind: SQLPPToken.Kind) -> SQLPPToken {
            SQLPPToken(kind: kind, offset: start, text: String(characters[start..<index]))
        }
        if character.isLetter || character == "_" {
            while let next = current, next.isLetter || next.isNumber || next == "_" || next == "$" { index += 1 }
            return token(.identifier(String(characters[start..<index]), quoted: false))
        }
        if character.isASCII && character.isNumber
            || character == "." && (peek()?.isASCII ?? false) && (peek()?.isNumber ?? false)
        {
            return try number(start)
        }
        switch character {
        case "`":
            let name = try quoted(start, closing: "`")
            return SQLPPToken(
                kind: .identifier(name, quoted: true), offset: start, text: String(characters[start..<index]))
        case "'", "\"":
            let text = try quoted(start, closing: character)
            return SQLPPToken(kind: .string(text), offset: start, text: String(characters[start..<index]))
        case "$":
            index += 1
            let nameStart = index
            while let next = current, next.isLetter || next.isNumber || next == "_" { index += 1 }
            guard index > nameStart else { throw error(start, "expected a parameter name after '$'") }
            return token(.parameter(String(characters[nameStart..<index])))
        default:
            break
        }
        let two = String(characters[index..<min(index + 2, characters.count)])
        if ["==", "!=", "<>", "<=", ">=", "||"].contains(two) {
            index += 2
            return token(.symbol(two))
        }
        if "()[],.*+-/%=<>;{}:".contains(character) {
            index += 1
            return token(.symbol(String(character)))
        }
        throw error(start, "unexpected character '\(character)'")
    }

    private mutating func skipSpaceAndComments() {
        while let character = current {
            if character.isWhitespace {
                index += 1
            } else if character == "-" && peek() == "-" {
                while let next = current, next != "\n" { index += 1 }
            } else if character == "/" && peek() == "*" {
                index += 2
                while current != nil && !(current == "*" && peek() == "/") { index += 1 }
                index = min(index + 2, characters.count)
            } else {
                return
            }
        }
    }

    /// Text between quotes; a doubled closing quote stands for itself.
    private mutating func quoted(_ start: Int, closing: Character) throws -> String {
        index += 1
        var text = ""
        while true {
            guard let character = current else {
                throw error(start, "unterminated \(closing == "`" ? "quoted name" : "string")")
            }
            index += 1
            if character == closing {
                if current == closing {
                    text.append(closing)
                    index += 1
                } else {
                    return text
                }
            } else {
                text.append(character)
            }
        }
    }

    private mutating func number(_ start: Int) throws -> SQLPPToken {
        var isInteger = true
        while let next = current, next.isASCII && next.isNumber { index += 1 }
        if current == ".", peek()?.isASCII ?? false, peek()?.isNumber ?? false {
            isInteger = false
            index += 1
            while let next = current, next.isASCII && next.isNumber { index += 1 }
        }
        if current == "e" || current == "E" {
            let mark = index
            index += 1
            if current == "+" || current == "-" { index += 1 }
            if let next = current, next.isASCII && next.isNumber {
                isInteger = false
                while let next = current, next.isASCII && next.isNumber { index += 1 }
            } else {
                index = mark
            }
        }
        let text = String(characters[start..<index])
        if isInteger, let value = Int64(text) {
            return SQLPPToken(kind: .integer(value), offset: start, text: text)
        }
        guard let value = Double(text), value.isFinite else { throw error(start, "invalid number '\(text)'") }
        return SQLPPToken(kind: .double(value), offset: start, text: text)
    }
}
