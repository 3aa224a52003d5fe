/// What a query workload asks of the store: one equality filter on a property of every
/// stored document, selecting the ID and one more property of each match.
public enum QuerySubject: Sendable {
    /// People (about 300 B) in the state `WA`, one in five of them; selects `name.last`.
    case peopleInState
    /// Hotels (a few KB) in France, about three in twenty; selects `name`.
    case hotelsInCountry

    /// The dotted path the filter compares.
    public var filterPath: String {
        switch self {
        case .peopleInState: "contact.address.state"
        case .hotelsInCountry: "country"
        }
    }

    /// The value it compares with.
    public var value: String {
        switch self {
        case .peopleInState: "WA"
        case .hotelsInCountry: "France"
        }
    }

    /// The dotted path of the second column.
    public var selectPath: String {
        switch self {
        case .peopleInState: "name.last"
        case .hotelsInCountry: "name"
        }
    }

    /// The value index's name (Quire) or the SQL index's (the baselines).
    public var indexName: String {
        switch self {
        case .peopleInState: "byState"
        case .hotelsInCountry: "byCountry"
        }
    }
}
