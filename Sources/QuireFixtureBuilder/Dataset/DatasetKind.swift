import QuireFixtures

/// The kinds of dataset ``DatasetGenerator`` makes.
public enum DatasetKind: String, Sendable, Equatable, CaseIterable {
    /// People (about 250-300 bytes of JSON each) in the default collection: name, gender, birthday,
    /// contact (address with a US state, `WA` for one in five; emails; phones), likes.
    case names
    /// A travel inventory: `inventory.airline`, `.airport`, `.hotel`, `.landmark`, `.route`,
    /// with hotels of a few KB holding review texts, and PNG blobs referenced from hotels.
    /// The count is the number of hotels; there are count/10 airlines (at least 2), count/2
    /// airports (at least 4), count landmarks and 2 x count routes.
    case travel
}
