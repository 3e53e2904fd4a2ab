import Dispatch
import RxSwift
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keys read from a file descriptor (standard input, a pseudo-terminal) as an observable.
public enum KeyReader {
    /// The keys typed on `fileDescriptor`, delivered on `scheduler` (the main scheduler by default,
    /// where controls live).
    ///
    /// Reading waits on a dispatch source, so an idle program uses no CPU (no polling loop). Bytes are
    /// decoded by a ``KeyDecoder``; when a read ends in the middle of a key (a lone `ESC`), the decoder
    /// is flushed if nothing more arrives within `escapeTimeout`, which is how Escape is told apart from
    /// the start of an arrow key's sequence. Completes at end of file; errors with ``TerminalError``
    /// when a read fails. Disposing stops reading and returns once the descriptor is no longer watched,
    /// so the caller may close it right away (it is not closed here: the caller owns it).
    public static func keys(
        fileDescriptor: Int32, escapeTimeout: DispatchTimeInterval = .milliseconds(25),
        scheduler: ImmediateSchedulerType = MainScheduler.instance
    ) -> Observable<Key> {
        Observable<Key>.create { observer in
            let reader = FileKeyReader(fileDescriptor: fileDescriptor, escapeTimeout: escapeTimeout) { event in
                observer.on(event)
            }
            reader.start()
            return Disposables.create { reader.stop() }
        }
        .observe(on: scheduler)
    }
}

/// The reading state of one subscription.
///
/// Thread-safety: the dispatch source's handlers and the escape timer run on `queue`, and ``stop()``
/// hops onto it, so the state is only ever used there; it is behind a `Mutex` all the same, which lets
/// the compiler check that the reader may be shared with those handlers (`Sendable`).
private final class FileKeyReader: Sendable {
    private struct State {
        var source: DispatchSourceRead?
        var decoder = KeyDecoder()
        /// Bumped on every read, so an escape timer set before newer bytes arrived does nothing.
        var readCount = 0
    }

    private let fileDescriptor: Int32
    private let escapeTimeout: DispatchTimeInterval
    private let deliver: @Sendable (Event<Key>) -> Void
    private let queue = DispatchQueue(label: "TerminalUI.KeyReader")
    private static let queueKey = DispatchSpecificKey<Void>()
    /// Entered when the source starts watching, left by its cancel handler: a descriptor closed while
    /// still watched can be reused by a new source that then never fires (libdispatch keys its epoll
    /// registration by descriptor number), so ``stop()`` waits for this.
    private let watching = DispatchGroup()
    private let state = Mutex(State())

    init(
        fileDescriptor: Int32, escapeTimeout: DispatchTimeInterval, deliver: @escaping @Sendable (Event<Key>) -> Void
    ) {
        self.fileDescriptor = fileDescriptor
        self.escapeTimeout = escapeTimeout
        self.deliver = deliver
        queue.setSpecific(key: Self.queueKey, value: ())
    }

    func start() {
        queue.async { [self] in
            // A dispatch source on a closed descriptor would wait for ever instead of failing.
            guard fcntl(fileDescriptor, F_GETFD) != -1 else { return deliver(.error(TerminalError.lastError("fcntl"))) }
            state.withLock { $0.source = makeSource() }
        }
    }

    /// A new source watching the descriptor, resumed: its handlers run on `queue`, so none runs before
    /// the block calling this (on `queue`) has stored it.
    private func makeSource() -> sending DispatchSourceRead {
        let source = DispatchSource.makeReadSource(fileDescriptor: fileDescriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.readAvailable() }
        watching.enter()
        source.setCancelHandler { [watching] in watching.leave() }
        source.resume()
        return source
    }

    /// Stops watching. Called on the reader's own queue (disposal after the reader's own end of file
    /// or error) it cannot wait there for the cancel handler, which runs on that queue; the descriptor
    /// is at its end or broken then anyway.
    func stop() {
        if DispatchQueue.getSpecific(key: Self.queueKey) != nil {
            cancelSource()
            return
        }
        queue.sync { cancelSource() }
        _ = watching.wait(timeout: .now() + .seconds(2))
    }

    private func cancelSource() {
        state.withLock { state in
            state.source?.cancel()
            state.source = nil
        }
    }

    /// Reads until nothing more is ready. One readiness event can stand for bytes and the end of file
    /// behind them (a paste, then the writer closing), and no second event comes for what is left, so
    /// `poll` with a zero timeout asks whether another `read` would return at once.
    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        repeat {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                let keys = state.withLock { state in
                    state.readCount += 1
                    return state.decoder.decode(buffer[0..<count])
                }
                keys.forEach { deliver(.next($0)) }
            } else if count == 0 {
                state.withLock { $0.decoder.flush() }.forEach { deliver(.next($0)) }
                return finish(.completed)
            } else if errno == EAGAIN || errno == EINTR {
                break
            } else {
                return finish(.error(TerminalError.lastError("read")))
            }
        } while isReadable()
        let (pending, readCount) = state.withLock { ($0.decoder.hasPendingBytes, $0.readCount) }
        if pending { scheduleFlush(after: readCount) }
    }

    private func isReadable() -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN | POLLHUP) != 0
    }

    private func scheduleFlush(after readCount: Int) {
        queue.asyncAfter(deadline: .now() + escapeTimeout) { [weak self] in
            guard let self else { return }
            let keys = state.withLock { state -> [Key] in
                guard state.source != nil, state.readCount == readCount else { return [] }
                return state.decoder.flush()
            }
            keys.forEach { deliver(.next($0)) }
        }
    }

    private func finish(_ event: Event<Key>) {
        cancelSource()
        deliver(event)
    }
}
