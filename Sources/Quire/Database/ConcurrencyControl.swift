/// What a save or delete does when the stored document changed since it was read.
public enum ConcurrencyControl: Sendable {
    /// The change wins: it becomes the next revision after whatever is stored.
    case lastWriteWins
    /// The save or delete returns false and changes nothing.
    case failOnConflict
}
