import Hummingbird

/// A category as EONET v3 lists it and as the server answers `GET /categories`.
public struct Category: Codable, Sendable, Equatable, ResponseEncodable {
    public let id: String
    public let title: String
    public let description: String?
}

/// An event as EONET v3 sends it, reduced to what the server serves.
public struct Event: Codable, Sendable, Equatable, ResponseEncodable {
    public struct CategoryRef: Codable, Sendable, Equatable {
        public let id: String
        public let title: String?
    }

    public struct Geometry: Codable, Sendable, Equatable {
        public let date: String?
        public let type: String?
    }

    public let id: String
    public let title: String
    public let closed: String?
    public let categories: [CategoryRef]
    public let geometry: [Geometry]?
}

struct CategoriesPage: Decodable, Sendable {
    let categories: [Category]
}

struct EventsPage: Decodable, Sendable {
    let events: [Event]
}

/// The answer of `GET /events`.
public struct EventList: Encodable, Sendable, ResponseEncodable {
    public let category: String?
    public let days: Int
    public let events: [Event]
}
