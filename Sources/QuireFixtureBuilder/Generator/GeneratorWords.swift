import QuireFixtures

/// The word lists the dataset generator draws from. Fixed data: changing any list changes
/// every generated dataset, so treat edits like a format change.
enum GeneratorWords {
    static let femaleFirstNames = [
        "Ada", "Beatriz", "Chloé", "Dana", "Elena", "Fatima", "Grace", "Hana", "Inés", "Julia", "Keiko", "Lena",
        "Maya", "Noémie", "Olivia", "Priya", "Rosa", "Sofia", "Tamar", "Zoë",
    ]
    static let maleFirstNames = [
        "Aaron", "Bruno", "Carlos", "Dmitri", "Émile", "Felix", "Gustav", "Hiro", "Ivan", "José", "Kofi", "Liam",
        "Mateo", "Nils", "Omar", "Pablo", "Raj", "Stefan", "Tomás", "Yusuf",
    ]
    static let lastNames = [
        "Anderson", "Bergström", "Chen", "Dubois", "Evans", "Fernández", "García", "Hansen", "Ito", "Jensen",
        "Kowalski", "Laserna", "Müller", "Nakamura", "O'Brien", "Patel", "Quinn", "Rossi", "Schmidt", "Tanaka",
        "Uchida", "Varga", "Walker", "Xu", "Yamamoto", "Zimmermann",
    ]
    static let streetNames = [
        "Deer", "Maple", "Cedar", "Harbor", "Lake", "Hill", "Pine", "Elm", "Sunset", "River", "Orchard", "Willow",
        "Meadow", "Ridge", "Forest", "Park",
    ]
    static let streetSuffixes = ["Loop", "Street", "Avenue", "Road", "Lane", "Court", "Way", "Place", "Drive"]
    static let likes = [
        "chatting", "hiking", "swimming", "reading", "cooking", "biking", "climbing", "painting", "travelling",
        "running", "photography", "gardening", "chess", "music",
    ]
    static let emailDomains = ["example.com", "example.org", "example.net", "mail.example"]

    /// US places: city, two-letter state, first three zip digits, area code.
    static let usPlaces: [(city: String, state: String, zip: String, area: String)] = [
        ("Seattle", "WA", "981", "206"), ("Spokane", "WA", "992", "509"), ("Tacoma", "WA", "984", "253"),
        ("Bellevue", "WA", "980", "425"), ("Redmond", "WA", "980", "425"), ("San Francisco", "CA", "941", "415"),
        ("Los Angeles", "CA", "900", "213"), ("San Diego", "CA", "921", "619"), ("Portland", "OR", "972", "503"),
        ("Boise", "ID", "837", "208"), ("Denver", "CO", "802", "303"), ("Austin", "TX", "787", "512"),
        ("Houston", "TX", "770", "713"), ("Chicago", "IL", "606", "312"), ("Boston", "MA", "021", "617"),
        ("New York", "NY", "100", "212"), ("Miami", "FL", "331", "305"), ("Atlanta", "GA", "303", "404"),
        ("Phoenix", "AZ", "850", "602"), ("Minneapolis", "MN", "554", "612"),
    ]

    /// Places for the travel dataset: city, country, IANA time zone, latitude, longitude.
    static let travelPlaces: [(city: String, country: String, zone: String, latitude: Double, longitude: Double)] = [
        ("Paris", "France", "Europe/Paris", 48.8566, 2.3522), ("Lyon", "France", "Europe/Paris", 45.764, 4.8357),
        ("Nice", "France", "Europe/Paris", 43.7102, 7.262), ("Zürich", "Switzerland", "Europe/Zurich", 47.3769, 8.5417),
        ("Genève", "Switzerland", "Europe/Zurich", 46.2044, 6.1432),
        ("Köln", "Germany", "Europe/Berlin", 50.9375, 6.9603),
        ("München", "Germany", "Europe/Berlin", 48.1351, 11.582),
        ("Málaga", "Spain", "Europe/Madrid", 36.7213, -4.4214),
        ("Kraków", "Poland", "Europe/Warsaw", 50.0647, 19.945),
        ("Reykjavík", "Iceland", "Atlantic/Reykjavik", 64.1466, -21.9426),
        ("London", "United Kingdom", "Europe/London", 51.5074, -0.1278),
        ("Edinburgh", "United Kingdom", "Europe/London", 55.9533, -3.1883),
        ("Montréal", "Canada", "America/Toronto", 45.5017, -73.5673),
        ("Québec", "Canada", "America/Toronto", 46.8139, -71.208),
        ("São Paulo", "Brazil", "America/Sao_Paulo", -23.5505, -46.6333),
        ("San Francisco", "United States", "America/Los_Angeles", 37.7749, -122.4194),
        ("Seattle", "United States", "America/Los_Angeles", 47.6062, -122.3321),
        ("New York", "United States", "America/New_York", 40.7128, -74.006),
        ("Chicago", "United States", "America/Chicago", 41.8781, -87.6298),
        ("Tokyo", "Japan", "Asia/Tokyo", 35.6762, 139.6503),
    ]

    static let hotelAdjectives = [
        "Grand", "Royal", "Little", "Old", "Blue", "Golden", "Quiet", "Riverside", "Garden", "Harbour", "Belle",
        "Petit",
    ]
    static let hotelNouns = [
        "Lantern", "Crown", "Anchor", "Swan", "Oak", "Fountain", "Lodge", "Palace", "Terrace", "Manor",
    ]
    static let hotelKinds = ["Hotel", "Inn", "Suites", "Guest House", "Hostel", "B&B"]
    static let landmarkKinds = [
        "Museum", "Cathedral", "Market", "Gardens", "Bridge", "Tower", "Square", "Bistro", "Café",
    ]
    static let activities = ["see", "eat", "do", "buy", "drink"]
    static let airlineWords = [
        "Sky", "Blue", "Polar", "Coastal", "Alpine", "Trans", "Sun", "Star", "Nordic", "Pacific",
    ]
    static let airlineKinds = ["Air", "Airways", "Airlines", "Express", "Jet"]
    static let aircraft = ["320", "321", "738", "739", "73H", "E90", "CRJ", "788", "77W", "333"]

    // Review prose.
    static let adjectives = [
        "charming", "spacious", "noisy", "spotless", "friendly", "cramped", "elegant", "rustic", "cozy", "tired",
        "modern", "welcoming", "quiet", "bright", "dated", "comfortable", "lovely", "disappointing", "superb", "naïve",
    ]
    static let adverbs = ["really", "surprisingly", "rather", "truly", "a little", "remarkably", "quite", "hardly"]
    static let roomNouns = [
        "room", "bathroom", "bed", "balcony", "lobby", "pool", "view", "décor", "façade", "corridor",
    ]
    static let foods = [
        "crème brûlée", "croissants", "crêpes", "pâté", "fresh fruit", "paella", "jalapeño omelette", "smörgåsbord",
        "pancakes", "fish and chips", "entrée of the day", "soufflé",
    ]
    static let drinks = ["coffee", "espresso", "café au lait", "tea", "orange juice", "rosé", "hot chocolate"]
    static let views = ["harbour", "old town", "river", "mountains", "cathedral", "park", "car park", "rooftops"]
    static let timesOfDay = ["sunrise", "dusk", "night", "midday", "breakfast time"]
    static let companions = ["my fiancée", "our kids", "a colleague", "my parents", "friends", "my partner"]
    static let pastVerbs = ["loved", "enjoyed", "appreciated", "tolerated", "remembered", "admired"]
}
