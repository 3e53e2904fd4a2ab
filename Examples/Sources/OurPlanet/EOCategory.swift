import Foundation
import RxDataSources

/// One of EONET's event categories (`{"id": "wildfires", "title": "Wildfires", "description": …}`), with
/// the events downloaded for it so far.
public struct EOCategory: Equatable, Sendable {
    /// EONET v3's string id (`wildfires`); v2.1, the book's version, had integers.
    public let id: String
    /// The `title`.
    public let name: String
    public let description: String
    /// The events downloaded for the category: not in the JSON, filled in as downloads arrive.
    public var events = [EOEvent]()

    /// The failable initializer of the RxSwift book's OurPlanet: an entry without an id or a title
    /// is not a category.
    public init?(json: [String: Any]) {
        guard let id = json["id"] as? String, let name = json["title"] as? String else { return nil }
        self.id = id
        self.name = name
        // v3 may send `null` for a missing description.
        self.description = json["description"] as? String ?? ""
    }

    /// A category made in code (tests).
    public init(id: String, name: String, description: String = "", events: [EOEvent] = []) {
        self.id = id
        self.name = name
        self.description = description
        self.events = events
    }
}

/// A row of the categories table: its identity is EONET's id, so a category keeps its row while its
/// events arrive, and the row is reloaded (marked) when they change.
extension EOCategory: IdentifiableType {
    public var identity: String { id }
}

/// The categories table's one section.
public typealias CategorySection = AnimatableSectionModel<String, EOCategory>
