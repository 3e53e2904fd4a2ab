import Foundation

/// The body of Giphy's `/v1/gifs/search` (the book's `GiphySearchResponse`), with the pagination the
/// book ignores, so the status line can say how many there are in all.
public struct GiphySearchResponse: Decodable, Sendable {
    /// The results of this page.
    public let data: [GiphyGif]
    /// Where this page is among all the results; Giphy always sends it with a 200.
    public let pagination: Pagination?

    /// `total_count`, `count`, `offset`.
    public struct Pagination: Decodable, Sendable, Equatable {
        public let totalCount: Int
        public let count: Int
        public let offset: Int

        enum CodingKeys: String, CodingKey {
            case totalCount = "total_count"
            case count, offset
        }
    }
}

/// One search result (the book's `GiphyGif`): its id, its title and the `fixed_height` rendition the
/// app downloads.
public struct GiphyGif: Decodable, Sendable, Equatable {
    public let id: String
    public let title: String
    public let image: Image

    /// A rendition. Giphy sends every number as a string (`"height": "200"`), so they are kept as the
    /// book keeps them and read through ``pixelWidth``, ``pixelHeight`` and ``byteCount``.
    public struct Image: Decodable, Sendable, Equatable {
        public let height: String
        public let width: String
        public let size: String?
        public let url: URL

        public init(height: String, width: String, size: String?, url: URL) {
            self.height = height
            self.width = width
            self.size = size
            self.url = url
        }

        public var pixelWidth: Int? { Int(width) }
        public var pixelHeight: Int? { Int(height) }
        public var byteCount: Int? { size.flatMap { Int($0) } }
    }

    public init(id: String, title: String, image: Image) {
        self.id = id
        self.title = title
        self.image = image
    }

    enum CodingKeys: String, CodingKey {
        case id, title, images
    }

    enum ImagesKeys: String, CodingKey {
        case fixedHeight = "fixed_height"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        let images = try container.nestedContainer(keyedBy: ImagesKeys.self, forKey: .images)
        image = try images.decode(Image.self, forKey: .fixedHeight)
    }

    /// The title, or "(untitled <id>)" when Giphy's is empty.
    public var displayTitle: String {
        title.trimmingCharacters(in: .whitespaces).isEmpty ? "(untitled \(id))" : title
    }

    /// The row of the results list: the title (Giphy's may be empty) and the rendition's size.
    public var summary: String {
        let name = displayTitle
        var details = "\(image.width)×\(image.height)"
        if let bytes = image.byteCount { details += " · " + Self.format(bytes: bytes) }
        return "\(name)  \(details)"
    }

    /// "812 B", "12.3 KB", "1.4 MB".
    public static func format(bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f KB", Double(bytes) / 1000) }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
