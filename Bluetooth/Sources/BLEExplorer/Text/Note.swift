/// A sentence for the status line, numbered so that repeating it is a new event.
public struct Note: Equatable {
    public let id: Int
    public let text: String
}

/// A sentence as the failure of a `Result`.
struct Sentence: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
