extension Diff {
    /// Why two lists of sections could not be diffed. The payloads are the offending values, as `Any`
    /// (RxDataSources' types), for diagnostics.
    ///
    /// Thread-safety: `Swift.Error` is `Sendable`, but the payloads are the caller's own sections and items,
    /// which need not be. An error is made once and never mutated; sending it to another thread is as
    /// safe as sending those values is.
    public enum Error: Swift.Error, @unchecked Sendable, CustomDebugStringConvertible {
        /// Two items share an identity (in the initial sections, or in the final ones), anywhere in the list.
        case duplicateItem(item: Any)
        /// Two sections share an identity.
        case duplicateSection(section: Any)
        /// `init(original:items:)` of the section type returned a section whose items or identity are not
        /// the ones it was given.
        case invalidInitializerImplementation(section: Any, expectedItems: Any, expectedIdentifier: Any)

        public var debugDescription: String {
            switch self {
            case let .duplicateItem(item):
                return "Duplicate item \(item)"
            case let .duplicateSection(section):
                return "Duplicate section \(section)"
            case let .invalidInitializerImplementation(section, expectedItems, expectedIdentifier):
                return "Wrong initializer implementation for: \(section)\n"
                    + "Expected it should return items: \(expectedItems)\n"
                    + "Expected it should have id: \(expectedIdentifier)"
            }
        }
    }
}
