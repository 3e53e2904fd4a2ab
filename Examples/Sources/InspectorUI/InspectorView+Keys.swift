import Foundation
import RxInspect
import TerminalUI

/// The inspector view's keys: moving the cursor, pausing and stepping a tag, marking inputs, exporting,
/// filtering the lanes.
extension InspectorView {
    /// The keys and what they do, for the key help.
    static let keys: [(key: String, action: String)] = [
        ("←/→", "previous/next event"), ("↑/↓", "previous/next lane"), ("p", "pause/resume the lane's tag"),
        ("s", "step: deliver one held notification"), ("i", "mark/unmark the lane as an export input"),
        ("e/E", "export the lane as a Swift Testing / XCTest file"),
        ("/", "filter the lanes (Enter keeps, Esc clears)"),
        ("Esc/F2", "close the inspector"),
    ]

    /// What a key does (see ``keys``); every key the view gets stays here but those the screen needs.
    func handleKey(_ key: Key) -> Bool {
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

    func editFilter(_ key: Key) {
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

    func moveLane(by step: Int) {
        let count = tags.count
        guard count > 0 else { return }
        selectedLane = min(max(0, selectedLane + step), count - 1)
        selectedEvent = nil
    }

    func moveEvent(by step: Int) {
        guard let count = selectedLaneEvents()?.count, count > 0 else { return }
        let current = min(selectedEvent ?? count - 1, count - 1)
        let next = min(max(0, current + step), count - 1)
        selectedEvent = next == count - 1 ? nil : next
    }

    func togglePause() {
        guard let tag = selectedTag else { return }
        if inspector.isPaused(tag) {
            inspector.resume(tag)
            message = "resumed \(tag)"
        } else {
            inspector.pause(tag)
            message = "paused \(tag) · s steps, p resumes"
        }
    }

    func stepSelected() {
        guard let tag = selectedTag else { return }
        message =
            inspector.step(tag) ? "stepped \(tag) (\(inspector.heldCount(of: tag)) held)" : "nothing held in \(tag)"
    }

    func toggleInput() {
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
    /// `Exported_<tag>_XCTest.swift` for XCTest (`Inspector.exportFile(inputs:output:frame:framework:)`).
    @discardableResult
    public func exportSelected(framework: ExportedTestFramework = .swiftTesting) -> URL? {
        guard let tag = selectedTag else { return nil }
        let file = inspector.exportFile(
            inputs: inputTags.sorted(), output: tag, frame: frameLength, framework: framework)
        do {
            let url = try file.write(into: exportDirectory)
            message = "exported \(tag) to \(url.path)"
            return url
        } catch {
            message = "export failed: \(error.localizedDescription)"
            return nil
        }
    }
}
