import FoundationEssentials

// UIKit and AppKit give `IndexPath` its section and row; on other platforms this module does, so that
// data-source code reads the same everywhere.
#if !canImport(UIKit) && !canImport(AppKit)
    extension IndexPath {
        /// The path of `item` in `section`.
        public init(item: Int, section: Int) {
            self.init(indexes: [section, item])
        }

        /// The path of `row` in `section`.
        public init(row: Int, section: Int) {
            self.init(indexes: [section, row])
        }

        /// The first index.
        public var section: Int { self[0] }

        /// The second index.
        public var item: Int { self[1] }

        /// The second index.
        public var row: Int { self[1] }
    }
#endif

extension ItemPath {
    /// The index path of this item.
    var indexPath: IndexPath { IndexPath(item: itemIndex, section: sectionIndex) }
}
