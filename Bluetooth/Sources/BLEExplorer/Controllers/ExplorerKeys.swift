import RxCocoa
import RxSwift
import TerminalUI

/// The explorer's own keys, as relays the view models read, routed by the screen showing. The keys
/// the kit answers itself (Tab, q, Ctrl-C, ?, F1) and those of the focused view (the arrows, Enter,
/// Esc in the tree) never come here.
@MainActor
final class ExplorerKeys {
    /// F2 or `p`, anywhere: the simulated radio on or off.
    let toggleRadio = PublishRelay<Void>()
    /// `s` on the scan screen.
    let toggleScan = PublishRelay<Void>()
    /// `r`, `n`, `c` on the device screen.
    let read = PublishRelay<Void>()
    let toggleNotify = PublishRelay<Void>()
    let reconnect = PublishRelay<Void>()
    /// `d` (or Esc in the tree) on the device screen.
    let back = PublishRelay<Void>()
    /// `w` on the device screen, and Esc while typing the value.
    let startWriting = PublishRelay<Void>()
    let cancelWriting = PublishRelay<Void>()

    func route(_ key: Key, showingDevice: Bool) {
        switch (key, showingDevice) {
        case (.function(2), _), (.character("p"), _): toggleRadio.accept(())
        case (.character("s"), false): toggleScan.accept(())
        case (.character("r"), true): read.accept(())
        case (.character("n"), true): toggleNotify.accept(())
        case (.character("c"), true): reconnect.accept(())
        case (.character("d"), true): back.accept(())
        case (.character("w"), true): startWriting.accept(())
        case (.escape, true): cancelWriting.accept(())
        default: break
        }
    }

    /// The help overlay's "This screen" on the scan screen.
    static let scanHelp: [(key: String, action: String)] = [
        ("Enter", "connect to the highlighted device"),
        ("s", "stop the scan, or scan again"),
        ("F2 or p", "simulated radio off/on"),
    ]

    /// The help overlay's "This screen" on a device's screen.
    static let deviceHelp: [(key: String, action: String)] = [
        ("r", "read the highlighted characteristic"),
        ("w", "write it: hex like 01 ff, or \"text\" in quotes"),
        ("n", "notifications on/off (heart rate: plotted)"),
        ("d or Esc", "disconnect, back to the scan"),
        ("c", "connect again after a disconnection"),
        ("F2 or p", "simulated radio off/on"),
    ]
}
