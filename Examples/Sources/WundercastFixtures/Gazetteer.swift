import FixtureHTTP
import Foundation

/// A place the offline server knows by name, as a line of `gazetteer.tsv` gives it.
struct Place: Sendable, Equatable {
    let name: String
    /// ISO 3166-1 alpha-2, as the service's `sys.country`.
    let country: String
    let latitude: Double
    let longitude: Double
    /// Seconds east of UTC.
    let timezone: Int

    /// The service's ids (GeoNames') are below 13 million, so a made-up id from 100 million up never
    /// takes a recorded city's; made from the name and country, a place keeps it however the file is
    /// reordered.
    var id: Int { 100_000_000 + stableHash("\(name),\(country)") % 900_000_000 }
}

/// The places `q=` finds: the gazetteer resource, read once, matched as the service matches a name.
enum Gazetteer {
    /// In the file's order, which decides between namesakes.
    static let places: [Place] = {
        guard let url = Bundle.module.url(forResource: "gazetteer", withExtension: "tsv"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { fatalError("gazetteer.tsv is missing from WundercastFixtures' bundle") }
        return parse(text)
    }()

    /// Folded once: a search compares against every place.
    private static let keys: [(name: String, country: String)] = places.map { (fold($0.name), fold($0.country)) }

    /// The place a `q=` names: "City", "City,CC" or "City,State,CC" (the last part is the country, as
    /// the service reads it), ignoring case, accents and spaces around each part; the first of
    /// several namesakes unless a country says which. A country no such place is in finds nothing.
    static func place(matching query: String) -> Place? {
        let parts = query.split(separator: ",", omittingEmptySubsequences: false).map { fold(String($0)) }
        let name = parts[0]
        let country = parts.count > 1 ? parts[parts.count - 1] : ""
        return zip(places, keys).first { _, key in
            key.name == name && (country.isEmpty || key.country == country)
        }?.0
    }

    /// The lines of a gazetteer: `#` comments, and name, country, latitude, longitude and UTC offset
    /// separated by tabs (an empty offset is UTC).
    static func parse(_ text: String) -> [Place] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            // The file ships with the code and is tested: a bad line is a mistake to see at once.
            guard fields.count == 5, let latitude = Double(fields[2]), let longitude = Double(fields[3]),
                let timezone = fields[4].isEmpty ? 0 : Int(fields[4])
            else { preconditionFailure("gazetteer.tsv: not name, country, latitude, longitude, offset: \(line)") }
            return Place(
                name: fields[0], country: fields[1], latitude: latitude, longitude: longitude, timezone: timezone)
        }
    }

    /// Letters that are not a base letter with a mark, which diacritic folding leaves as they are, and
    /// the apostrophes people type for the ones in names.
    private static let unmarked: [Character: String] = [
        "ł": "l", "đ": "d", "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i", "þ": "th", "ð": "d",
        "’": "'", "‘": "'", "ʻ": "'",
    ]

    /// How two spellings of a name compare: "ZÜRICH " and "zurich", "Łódź" and "lodz".
    static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces)
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .map { unmarked[$0] ?? String($0) }.joined()
    }
}
