import Dispatch
import Foundation
import RxSwift
import Synchronization

/// The terminal a full-screen program runs in: raw mode, the alternate screen, drawing, keys and size.
///
/// ``start()`` switches to raw mode and the alternate screen (so the user's shell scrollback is left
/// as it was) and hides the cursor; ``restore()`` undoes all of it. Restoring on *every* way out is the
/// point of this type, because a program that dies in raw mode leaves a shell that echoes nothing:
/// - normal exit: `exit()` runs an `atexit` hook that restores every started terminal;
/// - a thrown error: ``main(input:output:_:)`` restores, prints the error, exits with status 1;
/// - SIGINT and SIGTERM: dispatch signal sources restore and exit with 130 and 143 (128 + signal), as
///   a shell reports a process killed by them;
/// - Ctrl-C: raw mode delivers it as a key, so ``keys`` turns it into the SIGINT path (unless
///   ``exitsOnControlC`` is false and the program handles ``Key/control(_:)`` itself);
/// - `q` and Esc: a ``Screen`` run on the terminal asks for ``quit()``, which restores and exits with 0.
///
/// Mouse reporting (SGR, `ESC [ ? 1000 h` and `ESC [ ? 1006 h`) is switched on by ``start()`` when
/// ``reportsMouse`` is true and off again by ``restore()``, so it is off on every one of those paths: a
/// shell left with it on would print escape sequences at every click.
///
/// Thread-safety: the mutable state (started, the renderer) is behind a `Mutex`; the descriptors and
/// the raw-mode settings are immutable. `Sendable`, because the signal handlers restore it from a
/// queue of their own, and not the main actor's: restoring must work while the main queue is stuck.
public final class Terminal: Sendable {
    /// The descriptor keys are read from (standard input by default).
    public let input: Int32
    /// The descriptor frames are written to (standard output by default).
    public let output: Int32
    /// Whether Ctrl-C on ``keys`` restores the terminal and exits with 130, as SIGINT would.
    public let exitsOnControlC: Bool
    /// Whether the terminal reports mouse presses, releases and the wheel as ``Key/mouse(_:)``.
    public let reportsMouse: Bool
    private let rawMode: RawMode
    private let exitProcess: @Sendable (Int32) -> Void
    private let state: Mutex<State>

    private struct State {
        var started = false
        var renderer: Renderer
    }

    /// Prepares `input`/`output` (it must be a terminal: throws ``TerminalError`` with `ENOTTY`
    /// otherwise). Nothing changes until ``start()``.
    ///
    /// - Parameters:
    ///   - input: the file descriptor keys are read from (a terminal).
    ///   - output: the file descriptor frames are written to.
    ///   - colorMode: how colours are written; by default what the environment asks for.
    ///   - exitsOnControlC: whether Ctrl-C restores the terminal and ends the program (status 130).
    ///   - reportsMouse: whether to switch on mouse reporting while started.
    ///   - exitProcess: how a signal or Ctrl-C ends the program after restoring; tests replace it.
    public init(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, colorMode: ColorMode = .detect(),
        exitsOnControlC: Bool = true, reportsMouse: Bool = true,
        exitProcess: @escaping @Sendable (Int32) -> Void = { exit($0) }
    ) throws {
        self.input = input
        self.output = output
        self.exitsOnControlC = exitsOnControlC
        self.reportsMouse = reportsMouse
        self.exitProcess = exitProcess
        self.rawMode = try RawMode(fileDescriptor: input)
        self.state = Mutex(State(renderer: Renderer(colorMode: colorMode)))
    }

    /// Runs a terminal program: starts a terminal, calls `setUp` (which builds the screen and its
    /// bindings), then runs the main queue for ever. An error thrown by `setUp` restores the terminal,
    /// is printed to standard error and ends the program with status 1.
    ///
    /// On the main actor, as an application's start-up is: `setUp` builds views, and `dispatchMain()`
    /// then runs the main queue, which is the main actor's executor (and the main scheduler's queue).
    @MainActor
    public static func main(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, _ setUp: (Terminal) throws -> Void
    ) -> Never {
        var terminal: Terminal?
        do {
            let started = try Terminal(input: input, output: output)
            terminal = started
            try started.start()
            try setUp(started)
        } catch {
            terminal?.restore()
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
        dispatchMain()
    }

    /// Runs a program of one view controller, as an application runs its window's root view
    /// controller: `makeRoot` builds it on `terminal` (its bindings go in `bag`); it is kept for the life
    /// of the program, since its bindings refer to it unowned, and its `screen` runs on the terminal.
    /// Errors as in ``main(input:output:_:)``.
    @MainActor
    public static func main<Root: AnyObject>(
        rootViewController makeRoot: (_ terminal: Terminal, _ bag: DisposeBag) throws -> Root,
        screen: KeyPath<Root, Screen>
    ) -> Never {
        let window = RootHolder()
        return withExtendedLifetime(window) {
            main { terminal in
                let root = try makeRoot(terminal, window.bag)
                window.root = root
                root[keyPath: screen].run(on: terminal).disposed(by: window.bag)
            }
        }
    }

    /// Enters raw mode and the alternate screen, hides the cursor, and arranges for ``restore()`` on
    /// exit and on SIGINT/SIGTERM. Calling it again while started does nothing.
    public func start() throws {
        let alreadyStarted = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        guard !alreadyStarted else { return }
        TerminationHandlers.install()
        TerminationHandlers.add(self)
        do {
            try rawMode.enable()
            try write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J" + (reportsMouse ? Self.mouseOn : ""))
        } catch {
            restore()
            throw error
        }
        state.withLock { $0.renderer.invalidate() }
    }

    /// Shows the cursor, leaves the alternate screen and puts back the terminal settings found at
    /// creation. Safe to call more than once; errors are ignored because this runs on the way out,
    /// when nothing better can be done with them.
    public func restore() {
        let wasStarted = state.withLock { state in
            defer { state.started = false }
            return state.started
        }
        guard wasStarted else { return }
        TerminationHandlers.remove(self)
        try? write((reportsMouse ? Self.mouseOff : "") + "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        try? rawMode.restore()
    }

    /// Switches on press/release/wheel reports (1000) in the SGR encoding (1006).
    static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
    /// Switches both off, in the reverse order.
    static let mouseOff = "\u{1B}[?1006l\u{1B}[?1000l"

    /// Whether the terminal is started (raw, alternate screen).
    public var isStarted: Bool { state.withLock { $0.started } }

    /// Draws `grid` as the difference from the last frame drawn, in one write, with the cursor shown
    /// at `cursor` or hidden.
    public func draw(_ grid: CellGrid, cursor: Point? = nil) throws {
        let frame = state.withLock { $0.renderer.render(grid, cursor: cursor) }
        try write(frame)
    }

    /// Writes `text` whole (a terminal may accept part of a large write).
    public func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Foundation.write(output, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw TerminalError.lastError("write")
            }
            bytes = bytes.dropFirst(count)
        }
    }

    /// The terminal's size now (`ioctl(TIOCGWINSZ)` on the output).
    public func size() throws -> Size {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0 else { throw TerminalError.lastError("ioctl") }
        return Size(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// The terminal's size: the current size on subscription, then each new size after the terminal
    /// is resized (SIGWINCH), on the main scheduler. Resizing by dragging a window sends many signals;
    /// repeated sizes are dropped. Errors with ``TerminalError`` if the size cannot be read.
    public var sizes: Observable<Size> {
        Observable<Size>.create { [self] observer in
            let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
            let emit = { [self] in
                do { observer.onNext(try size()) } catch { observer.onError(error) }
            }
            source.setEventHandler(handler: emit)
            source.resume()
            emit()
            return Disposables.create { source.cancel() }
        }
        .subscribe(on: MainScheduler.instance)
        .distinctUntilChanged()
    }

    /// The keys typed, on the main scheduler (see ``KeyReader/keys(fileDescriptor:escapeTimeout:scheduler:)``);
    /// Ctrl-C ends the program as SIGINT does when ``exitsOnControlC`` is true.
    ///
    /// Each subscription reads the terminal itself, and two readers would split the keys between them:
    /// subscribe once (``Screen/run(on:)`` does) and share from there.
    public var keys: Observable<Key> {
        KeyReader.keys(fileDescriptor: input)
            .do(onNext: { [self] key in
                if exitsOnControlC && key == .control("c") { terminate(signal: SIGINT) }
            })
    }

    /// Restores the terminal and ends the program with status 0: what `q` and Esc do in a ``Screen``.
    public func quit() {
        restore()
        exitProcess(0)
    }

    /// Restores the terminal and ends the program with 128 + `signal`, as if `signal` had killed it.
    public func terminate(signal: Int32) {
        restore()
        exitProcess(128 + signal)
    }
}

/// The process-wide part of restoring: which terminals are started, and the handlers that restore
/// them. Signal dispositions and `atexit` are per process, so this is the one global state, behind a
/// `Mutex`.
private enum TerminationHandlers {
    private struct Registry {
        var terminals: [Terminal] = []
        var sources: [DispatchSourceSignal] = []
    }

    private static let registry = Mutex(Registry())
    /// A queue of its own, so a signal is handled even when the main queue is busy or stuck.
    private static let queue = DispatchQueue(label: "TerminalUI.signals")

    static func install() {
        registry.withLock { registry in
            guard registry.sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                // Ignored so the default action (dying at once, unrestored) does not run; the source
                // still sees the signal.
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { terminateAll(signal: signalNumber) }
                source.resume()
                registry.sources.append(source)
            }
            atexit { TerminationHandlers.restoreAll() }
        }
    }

    static func add(_ terminal: Terminal) {
        registry.withLock { $0.terminals.append(terminal) }
    }

    static func remove(_ terminal: Terminal) {
        registry.withLock { $0.terminals.removeAll { $0 === terminal } }
    }

    static func restoreAll() {
        registry.withLock { $0.terminals }.forEach { $0.restore() }
    }

    /// Restores every terminal, then exits through the first one's exit (or directly when none is
    /// started: the signal still ends the program, as it would have without these handlers).
    private static func terminateAll(signal: Int32) {
        let terminals = registry.withLock { $0.terminals }
        guard let first = terminals.first else { exit(128 + signal) }
        terminals.dropFirst().forEach { $0.restore() }
        first.terminate(signal: signal)
    }
}

/// What ``Terminal/main(rootViewController:screen:)`` keeps for the life of the program.
private final class RootHolder {
    let bag = DisposeBag()
    var root: AnyObject?
}
