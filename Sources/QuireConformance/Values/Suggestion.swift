/// Finds the nearest valid keyword for a misspelt one, by edit distance.
enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a plausible misspelling.
    static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let limit = max(2, min(word.count, best.candidate.count) / 3)
        return best.distance <= limit ? best.candidate : nil
    }

    /// `"; did you mean 'x'?"`, or an empty string when nothing is close.
    static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
        guard let match = nearest(to: word, in: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// Levenshtein distance with a single rolling row.
    static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var row = Array(0...rhs.count)
        for (i, left) in lhs.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, right) in rhs.enumerated() {
                let above = row[j + 1]
                row[j + 1] = min(above + 1, row[j] + 1, diagonal + (left == right ? 0 : 1))
                diagonal = above
            }
        }
        return row[rhs.count]
    }
}
