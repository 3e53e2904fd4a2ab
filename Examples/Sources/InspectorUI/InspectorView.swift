import Foundation
import RxInspect
import RxSwift
import TerminalUI

/// The tagged streams of a running program as live marble lanes: one lane per tag (``Inspector/tags``),
/// newest at the right, scrolling left as time passes.
///
/// Each column is ``frameLength`` clock units. A lane draws `^` where a subscription began, `●` for an
/// element (coloured by lane), `|` completed, `✕` error (red), `!` disposed; when several events share a
/// column the last one is drawn. A cursor selects an event (←→ along the lane, ↑↓ between lanes); the
/// detail line under the lanes reads its value, time and thread. Keys: `p` pauses or resumes the
/// selected tag, `s` steps it (delivers one held notification), `i` marks or unmarks the selected lane
/// as an input of the export, `e` exports the selected lane as a Swift Testing test and `E` as an
/// XCTest case (``exportSelected(framework:)``), `/` filters the
/// lanes (``laneFilter``), Esc closes.
///
/// It reads the inspector on every draw and asks for a draw every `refreshInterval` while it is shown
/// (the timer runs only then); it does not subscribe to the inspector.
@MainActor
public final class InspectorView: View {
    /// The inspector whose recordings are drawn and whose tags the keys pause, step and export.
    public let inspector: Inspector
    /// Clock units per column (200 ms by default, for the continuous clock's nanoseconds: 80 columns
    /// show the last 12 seconds).
    public var frameLength: Int {
        didSet { setNeedsDisplay() }
    }
    /// Where exported tests are written (the current directory by default).
    public var exportDirectory: URL
    /// How the detail line writes an event's time (by default the continuous clock's nanoseconds as
    /// seconds, `12.345 s`; a virtual clock's ticks read better as they are: `{ "\($0)" }`).
    public var timeDescription: (Int) -> String = { nanoseconds in
        let milliseconds = nanoseconds / 1_000_000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }
    /// Called when the view asks to be closed (Esc); the overlay hides it.
    public var onClose: (() -> Void)?

    /// The selected lane's index in ``Inspector/tags``.
    public private(set) var selectedLane = 0
    /// The selected event's index in the lane's visible events, or `nil` for the newest one (the cursor
    /// then follows new events).
    public private(set) var selectedEvent: Int?
    /// The tags marked as the export's inputs (`i`); empty means the selected tag is its own input.
    public private(set) var inputTags: Set<String> = []
    /// The last thing a key did (paused, stepped, exported to …), shown on the bottom line.
    public private(set) var message = ""
    /// Which lanes are shown: a glob over the tags (`download*`), or, with no `*` or `?`, the tags that
    /// contain it; empty shows every lane. Typed after `/` (Enter keeps it, Esc clears it).
    public var laneFilter = "" {
        didSet {
            selectedLane = 0
            selectedEvent = nil
            setNeedsDisplay()
        }
    }
    /// Whether `/` was pressed and the filter is being typed.
    public private(set) var isEditingFilter = false
    /// Whether the refresh timer runs (only while the view is shown).
    public private(set) var isRefreshing = false

    /// The view's subscriptions (the refresh timer, the overlay's F2 key).
    public let disposeBag = DisposeBag()
    private let scheduler: any SchedulerType
    private let refreshInterval: RxTimeInterval
    /// The refresh timer while the view is shown (in ``disposeBag``, so it goes with the view).
    private let refresh = SerialDisposable()
    private static let palette: [RGB] = [
        RGB(hex: 0x4FC3F7), RGB(hex: 0x81C784), RGB(hex: 0xFFB74D), RGB(hex: 0xBA68C8), RGB(hex: 0xF06292),
        RGB(hex: 0x4DD0E1), RGB(hex: 0xDCE775),
    ]

    /// A view of `inspector` that redraws every `refreshInterval` on `scheduler` while visible.
    public init(
        inspector: Inspector = .shared, frameLength: Int = 200_000_000,
        scheduler: any SchedulerType = MainScheduler.instance, refreshInterval: RxTimeInterval = .milliseconds(200),
        exportDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) {
        self.inspector = inspector
        self.frameLength = frameLength
        self.exportDirectory = exportDirectory
        self.scheduler = scheduler
        self.refreshInterval = refreshInterval
        super.init()
        isHidden = true
        refresh.disposed(by: disposeBag)
    }

    override public func isHiddenDidChange() {
        isRefreshing = !isHidden
        if isHidden {
            refresh.disposable = Disposables.create()
            isEditingFilter = false
            return
        }
        refresh.disposable = Observable<Int>.interval(refreshInterval, scheduler: scheduler)
            .subscribe(onNext: { [weak self] _ in self?.setNeedsDisplay() })
    }

    override public var acceptsTextInput: Bool { isEditingFilter }

    override public var canBecomeFocused: Bool { !isHidden }

    override public var keyHelpTitle: String { "Inspector" }

    override public var keyHelp: [(key: String, action: String)] {
        [
            ("←/→", "previous/next event"), ("↑/↓", "previous/next lane"), ("p", "pause/resume the lane's tag"),
            ("s", "step: deliver one held notification"), ("i", "mark/unmark the lane as an export input"),
            ("e/E", "export the lane as a Swift Testing / XCTest file"),
            ("/", "filter the lanes (Enter keeps, Esc clears)"),
            ("Esc/F2", "close the inspector"),
        ]
    }

    // MARK: What is shown

    /// The lanes' tags, in order: the inspector's tags that ``laneFilter`` keeps.
    public var tags: [String] {
        let all = inspector.tags
        guard !laneFilter.isEmpty else { return all }
        let pattern: TagPattern =
            laneFilter.contains(where: { $0 == "*" || $0 == "?" }) ? .glob(laneFilter) : .glob("*\(laneFilter)*")
        return all.filter(pattern.matches)
    }

    /// Width of the tag names' column: 16, wider for long tags up to a third of the view.
    private func labelWidth(for tags: [String]) -> Int {
        let longest = tags.map(\.count).max() ?? 0
        return min(max(16, longest + 2), max(16, frame.size.columns / 3))
    }

    /// The selected lane's tag.
    public var selectedTag: String? {
        let tags = self.tags
        return tags.isEmpty ? nil : tags[min(selectedLane, tags.count - 1)]
    }

    /// How many columns the lanes of `tags` have.
    private func timelineColumns(for tags: [String]) -> Int {
        max(1, frame.size.columns - labelWidth(for: tags) - 1)
    }

    /// The events of `tag` inside the window (the last `columns` columns up to now), each with its
    /// column; `columns` is the lanes' width (``timelineColumns(for:)`` of the shown tags).
    private func visibleEvents(of tag: String, now: Int, columns: Int) -> [(event: InspectedEvent, column: Int)] {
        inspector.events(of: tag).compactMap { event in
            let age = max(0, now - event.time) / max(1, frameLength)
            guard age < columns else { return nil }
            return (event, columns - 1 - age)
        }
    }

    /// The selected lane's visible events, now.
    private func selectedLaneEvents() -> [(event: InspectedEvent, column: Int)]? {
        let tags = self.tags
        guard !tags.isEmpty else { return nil }
        let tag = tags[min(selectedLane, tags.count - 1)]
        return visibleEvents(of: tag, now: inspector.clock.now(), columns: timelineColumns(for: tags))
    }

    /// The selected event (the newest of the lane when none is chosen).
    public var selected: InspectedEvent? {
        guard let events = selectedLaneEvents(), !events.isEmpty else { return nil }
        return events[min(selectedEvent ?? events.count - 1, events.count - 1)].event
    }

    // MARK: Keys

    override public func handle(_ key: Key) -> Bool {
        if isEditingFilter && key != .function(2) && key != .control("c") {
            editFilter(key)
            setNeedsDisplay()
            return true
        }
        switch key {
        case .function(2), .character("q"), .character("?"), .control("c"): return false
        case .escape: onClose?()
        case .up: moveLane(by: -1)
        case .down: moveLane(by: 1)
        case .left: moveEvent(by: -1)
        case .right: moveEvent(by: 1)
        case .character("p"): togglePause()
        case .character("s"): stepSelected()
        case .character("i"): toggleInput()
        case .character("e"): exportSelected()
        case .character("E"): exportSelected(framework: .xctest)
        case .character("/"): isEditingFilter = true
        default: break
        }
        // Every other key stays here, so the program underneath does not act on keys meant for the inspector.
        setNeedsDisplay()
        return true
    }

    private func editFilter(_ key: Key) {
        switch key {
        case .enter: isEditingFilter = false
        case .escape:
            isEditingFilter = false
            laneFilter = ""
        case .backspace: if !laneFilter.isEmpty { laneFilter.removeLast() }
        case .character(let character): laneFilter.append(character)
        default: break
        }
    }

    private func moveLane(by step: Int) {
        let count = tags.count
        guard count > 0 else { return }
        selectedLane = min(max(0, selectedLane + step), count - 1)
        selectedEvent = nil
    }

    private func moveEvent(by step: Int) {
        guard let count = selectedLaneEvents()?.count, count > 0 else { return }
        let current = min(selectedEvent ?? count - 1, count - 1)
        let next = min(max(0, current + step), count - 1)
        selectedEvent = next == count - 1 ? nil : next
    }

    private func togglePause() {
        guard let tag = selectedTag else { return }
        if inspector.isPaused(tag) {
            inspector.resume(tag)
            message = "resumed \(tag)"
        } else {
            inspector.pause(tag)
            message = "paused \(tag) · s steps, p resumes"
        }
    }

    private func stepSelected() {
        guard let tag = selectedTag else { return }
        message =
            inspector.step(tag) ? "stepped \(tag) (\(inspector.heldCount(of: tag)) held)" : "nothing held in \(tag)"
    }

    private func toggleInput() {
        guard let tag = selectedTag else { return }
        if inputTags.remove(tag) == nil { inputTags.insert(tag) }
        message =
            inputTags.isEmpty
            ? "no inputs marked: e exports the lane against itself"
            : "inputs: \(inputTags.sorted().joined(separator: ", "))"
    }

    /// Writes a test of the selected lane to ``exportDirectory`` and returns its path: the output is the
    /// selected tag; the inputs are the tags marked with `i` (the chain reads the first input, to be
    /// edited into the real chain), or the selected tag itself when none is marked (a test that replays
    /// the lane and expects it unchanged). The file is `Exported_<tag>.swift` for Swift Testing,
    /// `Exported_<tag>_XCTest.swift` for XCTest.
    @discardableResult
    public func exportSelected(framework: ExportedTestFramework = .swiftTesting) -> URL? {
        guard let tag = selectedTag else { return nil }
        let inputs = inputTags.isEmpty ? [tag] : inputTags.sorted()
        let names = inputs.map(Self.identifier)
        let outputName = Self.identifier(tag)
        let source = inspector.export(
            inputs: inputs, output: tag, chain: names[0], testName: "exported_\(outputName)", frame: frameLength,
            framework: framework)
        let named = zip(inputs, names).reduce(source) { text, pair in
            pair.0 == pair.1 ? text : text.replacingOccurrences(of: "let \(pair.0) =", with: "let \(pair.1) =")
        }
        let suffix = framework == .xctest ? "_XCTest" : ""
        let url = exportDirectory.appendingPathComponent("Exported_\(outputName)\(suffix).swift")
        do {
            try named.write(to: url, atomically: true, encoding: .utf8)
            message = "exported \(tag) to \(url.path)"
            return url
        } catch {
            message = "export failed: \(error.localizedDescription)"
            return nil
        }
    }

    /// A tag as a Swift identifier: letters, digits and underscores, other characters made underscores.
    static func identifier(_ tag: String) -> String {
        let mapped = String(tag.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        guard let first = mapped.first, !first.isNumber else { return "_" + mapped }
        return mapped
    }

    // MARK: Drawing

    override public func draw(into grid: inout CellGrid) {
        let area = frame
        let tags = self.tags
        let labelWidth = labelWidth(for: tags)
        guard area.size.columns > labelWidth + 2, area.size.rows >= 4 else { return }
        grid.fill(area)
        let left = area.origin.column
        let top = area.origin.row
        let now = inspector.clock.now()
        if selectedLane >= tags.count { selectedLane = max(0, tags.count - 1) }

        let filter =
            isEditingFilter ? " · filter: \(laneFilter)▏" : laneFilter.isEmpty ? "" : " · filter: \(laneFilter)"
        let title =
            "Inspector · \(tags.count) tags\(filter) · ←→ event ↑↓ lane p pause s step i input e export / filter"
            + " · F2 closes"
        grid.draw(
            truncated(title, toColumns: area.size.columns), at: Point(column: left, row: top),
            style: CellStyle(attributes: .bold))

        // Lanes between the title and the two bottom lines, scrolled to keep the selected lane in view.
        let laneRows = area.size.rows - 3
        let first = max(0, selectedLane - laneRows + 1)
        let columns = timelineColumns(for: tags)
        let timelineLeft = left + labelWidth + 1
        for (offset, tag) in tags.dropFirst(first).prefix(laneRows).enumerated() {
            let index = first + offset
            let row = top + 1 + offset
            let isSelected = index == selectedLane
            let paused = inspector.isPaused(tag)
            let mark = (paused ? "⏸" : " ") + (inputTags.contains(tag) ? "→" : " ")
            let label = truncated(mark + tag, toColumns: labelWidth)
            grid.draw(
                label, at: Point(column: left, row: row),
                style: CellStyle(attributes: isSelected ? [.bold, .reverse] : []))
            grid.draw(
                String(repeating: "-", count: columns), at: Point(column: timelineLeft, row: row),
                style: CellStyle(attributes: .dim))
            let events = visibleEvents(of: tag, now: now, columns: columns)
            let chosen = isSelected && !events.isEmpty ? min(selectedEvent ?? events.count - 1, events.count - 1) : nil
            let colour = Self.palette[index % Self.palette.count]
            let drawn = Self.drawnColumns(of: events)
            var ended: Set<Int> = []
            for (position, item) in events.enumerated() {
                // A dispose right after a completion or an error is not drawn over its `|` or `✕`.
                if item.event.kind == .completed || item.event.kind == .error { ended.insert(item.column) }
                if item.event.kind == .dispose && ended.contains(item.column) && position != chosen { continue }
                var style = style(of: item.event.kind, colour: colour)
                if position == chosen { style.attributes.insert(.reverse) }
                grid.draw(
                    symbol(of: item.event.kind), at: Point(column: timelineLeft + drawn[position], row: row),
                    style: style)
            }
            // The chosen event drawn last, so it is not hidden under a later one in its column.
            if let chosen {
                let item = events[chosen]
                var style = style(of: item.event.kind, colour: colour)
                style.attributes.insert(.reverse)
                grid.draw(
                    symbol(of: item.event.kind), at: Point(column: timelineLeft + drawn[chosen], row: row),
                    style: style)
            }
        }
        if tags.isEmpty {
            let empty =
                laneFilter.isEmpty
                ? "no tagged stream has run yet (tag one with .inspect(\"name\"))"
                : "no tag matches \(laneFilter) (Esc after / clears the filter)"
            grid.draw(
                truncated(empty, toColumns: area.size.columns),
                at: Point(column: left, row: top + 1), style: CellStyle(attributes: .dim))
        }

        let detailRow = area.maxRow - 2
        if let tag = selectedTag, let event = selected {
            let held = inspector.heldCount(of: tag)
            // The held count before the value, which may be long and cut.
            let detail =
                "\(tag)\(held > 0 ? " · \(held) held" : "") · \(event.kind.rawValue)"
                + "\(event.value.map { "(\($0))" } ?? "") · #\(event.subscription) · t=\(timeDescription(event.time)) · \(event.thread)"
            grid.draw(truncated(detail, toColumns: area.size.columns), at: Point(column: left, row: detailRow))
        }
        grid.draw(
            truncated(message, toColumns: area.size.columns), at: Point(column: left, row: area.maxRow - 1),
            style: CellStyle(attributes: .dim))
    }

    /// The column each event is drawn in: its own, except a subscription's `^` that a later event of
    /// the same column would cover (a replayed or a `startWith` element, which arrive with the
    /// subscription): that one is drawn a column earlier when the column is free, so the lane still
    /// shows where the subscription began. The detail line gives its exact time.
    /// (Another subscription in the same column covers it with the same mark: it stays.)
    static func drawnColumns(of events: [(event: InspectedEvent, column: Int)]) -> [Int] {
        var lastInColumn: [Int: Int] = [:]
        var lastNotificationInColumn: [Int: Int] = [:]
        for (position, item) in events.enumerated() {
            lastInColumn[item.column] = position
            if item.event.kind != .subscribe { lastNotificationInColumn[item.column] = position }
        }
        return events.enumerated().map { position, item in
            guard item.event.kind == .subscribe, item.column > 0, lastInColumn[item.column - 1] == nil,
                let covering = lastNotificationInColumn[item.column], covering > position
            else { return item.column }
            return item.column - 1
        }
    }

    private func symbol(of kind: InspectedEvent.Kind) -> String {
        switch kind {
        case .subscribe: "^"
        case .next: "●"
        case .completed: "|"
        case .error: "✕"
        case .dispose: "!"
        }
    }

    private func style(of kind: InspectedEvent.Kind, colour: RGB) -> CellStyle {
        switch kind {
        case .next: CellStyle(foreground: colour)
        case .error: CellStyle(foreground: RGB(hex: 0xE53935), attributes: .bold)
        default: CellStyle(attributes: .bold)
        }
    }
}
