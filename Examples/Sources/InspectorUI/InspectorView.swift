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
/// Its aspects have their files: what is shown (`+Lanes`), the keys (`+Keys`), the drawing (`+Drawing`);
/// an export is written by `ExportedTestFile.write(into:)`.
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
    public internal(set) var selectedLane = 0
    /// The selected event's index in the lane's visible events, or `nil` for the newest one (the cursor
    /// then follows new events).
    public internal(set) var selectedEvent: Int?
    /// The tags marked as the export's inputs (`i`); empty means the selected tag is its own input.
    public internal(set) var inputTags: Set<String> = []
    /// The last thing a key did (paused, stepped, exported to …), shown on the bottom line.
    public internal(set) var message = ""
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
    public internal(set) var isEditingFilter = false
    /// Whether the refresh timer runs (only while the view is shown).
    public private(set) var isRefreshing = false

    /// The view's subscriptions (the refresh timer, the overlay's F2 key).
    public let disposeBag = DisposeBag()
    private let scheduler: any SchedulerType
    private let refreshInterval: RxTimeInterval
    /// The refresh timer while the view is shown (in ``disposeBag``, so it goes with the view).
    private let refresh = SerialDisposable()

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

    override public var keyHelp: [(key: String, action: String)] { Self.keys }

    override public func handle(_ key: Key) -> Bool { handleKey(key) }

    override public func draw(into grid: inout CellGrid) { drawLanes(into: &grid) }
}
