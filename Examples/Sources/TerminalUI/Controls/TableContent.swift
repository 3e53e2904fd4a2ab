import FoundationEssentials
import RxDataSources

/// What a ``TableView`` shows: its sections and rows as last read from the data source, plus the
/// deleted rows and sections kept on screen, marked, until their changeset's marks end.
///
/// A batch is applied to what is shown, as UIKit applies it to its cells: rows are turned into
/// ghosts or taken out at their old index paths, then put in at their new ones, and finally every
/// row still standing is read again from the data source, which already holds the new sections. If
/// the counts then disagree with the data source (a changeset that does not add up), the content is
/// read afresh: what is shown always ends as the data source says.
struct TableContent {
    var sections: [TableSectionContent] = []

    /// Everything the data source holds, unmarked.
    init(source: TableSource) {
        sections = (0..<source.numberOfSections).map { Self.section($0, from: source, mark: nil, changeset: 0) }
    }

    private static func section(_ index: Int, from source: TableSource, mark: ChangeMark?, changeset: Int)
        -> TableSectionContent
    {
        let entries = (0..<source.numberOfRows(index)).map {
            TableEntry(cell: source.cell(IndexPath(row: $0, section: index)), mark: mark, changeset: changeset)
        }
        return TableSectionContent(
            header: source.header(index), footer: source.footer(index), entries: entries, mark: mark,
            changeset: changeset)
    }

    private var liveSections: [Int] { sections.indices.filter { !sections[$0].isGhost } }

    /// Applies `batch`, marking what it changes as `marks` says with changeset number `changeset`.
    /// Rows keep the marks they had (an earlier batch's) as they move.
    mutating func apply(_ batch: SectionedBatch, from source: TableSource, marks: ChangeMarks.Batch, changeset: Int) {
        // The batch's old index paths, resolved before anything changes (a row turned into a ghost
        // no longer has an index path, but the rows after it keep their old ones).
        let oldSections = liveSections
        let oldRows = oldSections.map { sections[$0].liveEntries }
        func position(_ path: IndexPath) -> (section: Int, entry: Int)? {
            guard path.count == 2, oldSections.indices.contains(path.section) else { return nil }
            let live = oldRows[path.section]
            return live.indices.contains(path.row) ? (oldSections[path.section], live[path.row]) : nil
        }

        var removedEntries: [(section: Int, entry: Int)] = []
        for (path, _) in batch.deletedItems {
            guard let at = position(path) else { continue }
            if let mark = marks.deletedItems[path] {
                sections[at.section].entries[at.entry] = TableEntry(
                    cell: sections[at.section].entries[at.entry].cell, mark: mark, changeset: changeset, isGhost: true)
            } else {
                removedEntries.append(at)
            }
        }
        var movedEntries: [(to: IndexPath, entry: TableEntry)] = []
        for move in batch.movedItems {
            guard let at = position(move.from) else { continue }
            movedEntries.append((move.to, sections[at.section].entries[at.entry]))
            removedEntries.append(at)
        }

        var removedSections: [Int] = []
        for (index, _) in batch.deletedSections where oldSections.indices.contains(index) {
            let section = oldSections[index]
            if let mark = marks.deletedSections[index] {
                markAll(section, mark, changeset)
                sections[section].isGhost = true
                for entry in sections[section].entries.indices { sections[section].entries[entry].isGhost = true }
            } else {
                removedSections.append(section)
            }
        }
        var movedSections: [(to: Int, section: TableSectionContent)] = []
        for move in batch.movedSections where oldSections.indices.contains(move.from) {
            let section = oldSections[move.from]
            movedSections.append((move.to, sections[section]))
            removedSections.append(section)
        }

        for at in removedEntries.sorted(by: { ($0.section, $0.entry) > ($1.section, $1.entry) }) {
            sections[at.section].entries.remove(at: at.entry)
        }
        for section in Set(removedSections).sorted(by: >) { sections.remove(at: section) }

        // The new index paths, in increasing order so that each lands among those already placed.
        var arrivingSections = movedSections.map { (index: $0.to, section: $0.section) }
        for (index, _) in batch.insertedSections {
            arrivingSections.append((index, Self.section(index, from: source, mark: nil, changeset: 0)))
        }
        for arriving in arrivingSections.sorted(by: { $0.index < $1.index }) {
            sections.insert(arriving.section, at: sectionPosition(forLiveIndex: arriving.index))
        }
        var arrivingEntries = movedEntries.map { (path: $0.to, entry: $0.entry) }
        for (path, _) in batch.insertedItems {
            arrivingEntries.append((path, TableEntry(cell: "")))
        }
        for arriving in arrivingEntries.sorted(by: { ($0.path.section, $0.path.row) < ($1.path.section, $1.path.row) })
        {
            let live = liveSections
            guard arriving.path.count == 2, live.indices.contains(arriving.path.section) else { continue }
            let section = live[arriving.path.section]
            let rows = sections[section].liveEntries
            let entry =
                rows.indices.contains(arriving.path.row) ? rows[arriving.path.row] : sections[section].entries.count
            sections[section].entries.insert(arriving.entry, at: entry)
        }
        guard refresh(from: source) else { return }

        // The marks, at the new index paths: a section's on its header and rows, then each row's own.
        let live = liveSections
        for (index, mark) in marks.sections where live.indices.contains(index) {
            markAll(live[index], mark, changeset)
        }
        for (path, mark) in marks.items where path.count == 2 && live.indices.contains(path.section) {
            let section = live[path.section]
            let rows = sections[section].liveEntries
            guard rows.indices.contains(path.row) else { continue }
            (sections[section].entries[rows[path.row]].mark, sections[section].entries[rows[path.row]].changeset) =
                (mark, changeset)
        }
    }

    private mutating func markAll(_ section: Int, _ mark: ChangeMark, _ id: Int) {
        Self.mark(&sections[section], mark, id)
    }

    /// Marks a section's header and rows (not its ghosts, which keep their own changeset's).
    private static func mark(_ content: inout TableSectionContent, _ mark: ChangeMark, _ id: Int) {
        (content.mark, content.changeset) = (mark, id)
        for entry in content.entries.indices where !content.entries[entry].isGhost {
            (content.entries[entry].mark, content.entries[entry].changeset) = (mark, id)
        }
    }

    /// Where a section that will have `index` live sections before it goes.
    private func sectionPosition(forLiveIndex index: Int) -> Int {
        let live = liveSections
        return live.indices.contains(index) ? live[index] : sections.count
    }

    /// Reads every row and header still standing again from the data source; false if the counts
    /// disagreed with it (then the content, or a section of it, was read afresh, unmarked).
    private mutating func refresh(from source: TableSource) -> Bool {
        let live = liveSections
        guard live.count == source.numberOfSections else {
            self = TableContent(source: source)
            return false
        }
        var addsUp = true
        for (index, section) in live.enumerated() {
            sections[section].header = source.header(index)
            sections[section].footer = source.footer(index)
            let rows = sections[section].liveEntries
            guard rows.count == source.numberOfRows(index) else {
                sections[section].entries = Self.section(index, from: source, mark: nil, changeset: 0).entries
                addsUp = false
                continue
            }
            for (row, entry) in rows.enumerated() {
                sections[section].entries[entry].cell = source.cell(IndexPath(row: row, section: index))
            }
        }
        return addsUp
    }

    /// The row at `path` (none for `nil`) becomes the one the highlight follows.
    mutating func follow(_ path: IndexPath?) {
        var sectionIndex = 0
        for section in sections.indices {
            var row = 0
            for entry in sections[section].entries.indices {
                let live = !sections[section].isGhost && !sections[section].entries[entry].isGhost
                sections[section].entries[entry].isHighlighted =
                    live && path == IndexPath(row: row, section: sectionIndex)
                if live { row += 1 }
            }
            if !sections[section].isGhost { sectionIndex += 1 }
        }
    }

    /// Where the row the highlight follows is now, unless it was deleted.
    var followedPath: IndexPath? {
        var sectionIndex = 0
        for section in sections where !section.isGhost {
            var row = 0
            for entry in section.entries where !entry.isGhost {
                if entry.isHighlighted { return IndexPath(row: row, section: sectionIndex) }
                row += 1
            }
            sectionIndex += 1
        }
        return nil
    }

    /// Whether anything carries changeset `id`'s mark.
    func hasMarks(ofChangeset id: Int) -> Bool {
        sections.contains { $0.changeset == id || $0.entries.contains { $0.changeset == id } }
    }

    /// Ends changeset `id`'s marks: its ghosts go, its other marks are cleared.
    mutating func endMarks(ofChangeset id: Int) {
        sections.removeAll { $0.isGhost && $0.changeset == id }
        for section in sections.indices {
            if sections[section].changeset == id { (sections[section].mark, sections[section].changeset) = (nil, 0) }
            sections[section].entries.removeAll { $0.isGhost && $0.changeset == id }
            for entry in sections[section].entries.indices where sections[section].entries[entry].changeset == id {
                (sections[section].entries[entry].mark, sections[section].entries[entry].changeset) = (nil, 0)
            }
        }
    }

    /// The lines shown: per section its header (if it has one), its rows and its footer (if any).
    var lines: [TableLine] {
        var lines: [TableLine] = []
        var sectionIndex = 0
        for section in sections {
            if let header = section.header {
                lines.append(TableLine(kind: section.isGhost ? .ghost : .header, text: header, mark: section.mark))
            }
            var row = 0
            for entry in section.entries {
                let kind: TableLine.Kind =
                    entry.isGhost ? .ghost : .row(IndexPath(row: row, section: sectionIndex))
                lines.append(TableLine(kind: kind, text: entry.cell.text, style: entry.cell.style, mark: entry.mark))
                if !entry.isGhost { row += 1 }
            }
            if let footer = section.footer {
                lines.append(TableLine(kind: section.isGhost ? .ghost : .footer, text: footer, mark: section.mark))
            }
            if !section.isGhost { sectionIndex += 1 }
        }
        return lines
    }
}
