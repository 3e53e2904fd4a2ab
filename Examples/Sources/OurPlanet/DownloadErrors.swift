import Foundation
import TerminalUI

/// A category whose events could not be downloaded, and why.
public struct DownloadError: Error, LocalizedError {
    public let categoryID: String
    public let category: String
    public let error: Error

    public var errorDescription: String? {
        "\(category): \(StatusLine.describe(error)) — press r to retry"
    }
}

/// The categories request failed: nothing else can be downloaded until it is retried.
public struct CategoriesFailure: Error, LocalizedError {
    public let error: Error

    public var errorDescription: String? {
        "Categories failed: \(StatusLine.describe(error)) — press r to retry"
    }
}

/// What the downloads came to: a message, or an error when some categories failed.
public struct DownloadSummary: Error, LocalizedError, Equatable {
    public let categories: Int
    /// Distinct events (one in two categories counts once).
    public let events: Int
    /// The names of the categories whose download failed, in the order they failed.
    public let failed: [String]

    public var errorDescription: String? {
        let summary = "\(categories) categories, \(events) events of the last \(CategoriesViewController.days) days"
        return failed.isEmpty
            ? summary : "Not downloaded: \(failed.joined(separator: ", ")) — press r to retry · \(summary)"
    }
}
