import Foundation

/// A place an event was observed: EONET's GeoJSON `Point` coordinates, longitude first.
public struct EOPoint: Equatable, Sendable {
    public let longitude: Double
    public let latitude: Double

    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    /// `34.05°N 118.24°W`.
    public var text: String {
        let lat = String(format: "%.2f°%@", abs(latitude), latitude >= 0 ? "N" : "S")
        let lon = String(format: "%.2f°%@", abs(longitude), longitude >= 0 ? "E" : "W")
        return "\(lat) \(lon)"
    }
}

/// One natural event as EONET v3 describes it: a title, the categories it belongs to, its sources, the
/// dates it was observed on (`geometry`), and the date it was closed, if it is over.
public struct EOEvent: Equatable, Sendable {
    public let id: String
    public let title: String
    /// v3 sends `null` when there is none (v2.1 sent `""`); both read as `""`.
    public let description: String
    public let link: URL?
    /// When the event ended; `nil` while it is open (v3 sends `"closed": null`, v2.1 left the key out).
    public let closeDate: Date?
    /// The ids of its categories (`wildfires`, …).
    public let categories: [String]
    /// The ids of the agencies reporting it (`IRWIN`, `JTWC`, …).
    public let sources: [String]
    /// The dates of its observations, oldest first (the `date` of each `geometry` item).
    public let observationDates: [Date]
    /// Where it was observed, in the order of `geometry` (its `Point`s; a `Polygon` has no one place).
    public let points: [EOPoint]

    /// The date shown for the event: when it closed, or else its latest observation.
    public var date: Date? { closeDate ?? observationDates.last }

    /// The RxSwift book's failable initializer: an event without an id, a title or valid dates is
    /// left out (the book's `raw.flatMap(EOEvent.init)`), the other events of the answer still
    /// count.
    public init?(json: [String: Any]) {
        guard let id = json["id"] as? String, let title = json["title"] as? String,
            let categories = json["categories"] as? [[String: Any]],
            let geometry = json["geometry"] as? [[String: Any]]
        else { return nil }
        var closeDate: Date?
        if let closed = json["closed"], !(closed is NSNull) {
            // Present and not null: it must be a date, or the event is malformed.
            guard let text = closed as? String, let date = EOEvent.date(text) else { return nil }
            closeDate = date
        }
        let dates = geometry.compactMap { ($0["date"] as? String).flatMap(EOEvent.date) }
        guard dates.count == geometry.count else { return nil }
        self.id = id
        self.title = title
        self.description = json["description"] as? String ?? ""
        self.link = (json["link"] as? String).flatMap(URL.init(string:))
        self.closeDate = closeDate
        self.categories = categories.compactMap { $0["id"] as? String }
        self.sources = (json["sources"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        self.observationDates = dates.sorted()
        self.points = geometry.compactMap { item in
            guard item["type"] as? String == "Point", let pair = item["coordinates"] as? [Double], pair.count == 2
            else { return nil }
            return EOPoint(longitude: pair[0], latitude: pair[1])
        }
    }

    /// An event made in code (tests).
    public init(
        id: String, title: String, description: String = "", link: URL? = nil, closeDate: Date? = nil,
        categories: [String], sources: [String] = [], observationDates: [Date], points: [EOPoint] = []
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.link = link
        self.closeDate = closeDate
        self.categories = categories
        self.sources = sources
        self.observationDates = observationDates
        self.points = points
    }

    /// EONET's dates: ISO 8601 in UTC without fractional seconds (`2026-09-30T08:56:00Z`).
    static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    /// Newest first, as the book's `EOEvent.compareDates` orders a category's events; events without a
    /// date last.
    public static func compareDates(lhs: EOEvent, rhs: EOEvent) -> Bool {
        switch (lhs.date, rhs.date) {
        case (let left?, let right?): return left > right
        case (.some, nil): return true
        default: return false
        }
    }
}
