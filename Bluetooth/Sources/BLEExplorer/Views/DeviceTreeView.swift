import RxCocoa
import RxSwift
import TerminalUI

/// The services → characteristics tree: the kit's list, one line a service or a characteristic, with
/// Esc meaning "back to the scan" instead of the screen's "quit" (the screen quits on any Esc the
/// focused view leaves).
@MainActor
public final class DeviceTreeView: ListView {
    private let backs = PublishSubject<Void>()

    deinit { backs.onCompleted() }

    /// Esc.
    public var backRequests: Observable<Void> { backs.asObservable() }

    public override func handle(_ key: Key) -> Bool {
        if key == .escape {
            backs.onNext(())
            return true
        }
        return super.handle(key)
    }

    public override var keyHelpTitle: String { "Services and characteristics" }

    public override var keyHelp: [(key: String, action: String)] {
        super.keyHelp + [("Esc", "disconnect, back to the scan")]
    }
}
