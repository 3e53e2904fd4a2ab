import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to gpsd, read on a thread of its own with blocking reads (no polling loop: the
/// thread sleeps in `read` until gpsd writes or the connection is shut down).
///
/// Thread-safety: `socket` and `stopped` are behind `state`; ``stop()`` shuts the socket down while
/// holding the lock so the reading thread cannot close it (and the number be reused) in between. That
/// is a system call, not a call out to other code. Events are handed to `report` on the reading thread,
/// outside the lock; the manager moves them to its scheduler.
final class GPSDConnection: Sendable {
    enum Event: Sendable {
        /// One TPV report with a fix.
        case location(Location)
        /// gpsd could not be reached or said nothing within the timeout; the connection is over.
        case unreachable(reason: String)
        /// gpsd closed the connection after answering; the connection is over.
        case disconnected
    }

    private struct State {
        var socket: Int32 = -1
        var stopped = false
    }

    private let host: String
    private let port: UInt16
    /// How long a connect and gpsd's greeting may take, in milliseconds (what `poll` takes).
    private let timeoutMilliseconds: Int32
    private let report: @Sendable (Event) -> Void
    private let state = Mutex(State())

    init(host: String, port: UInt16, answerTimeout: Duration, report: @escaping @Sendable (Event) -> Void) {
        self.host = host
        self.port = port
        let (seconds, attoseconds) = answerTimeout.components
        self.timeoutMilliseconds = Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        self.report = report
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "TerminalUI.gpsd"
        thread.start()
    }

    /// Ends the connection; nothing is reported after this returns, except possibly an event the
    /// reading thread had already taken out of the lock (the manager ignores events of a connection it
    /// has stopped).
    func stop() {
        state.withLock { state in
            state.stopped = true
            if state.socket >= 0 { _ = shutdown(state.socket, Int32(SHUT_RDWR)) }
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        let socket: Int32
        switch openSocket() {
        case .success(let connected): socket = connected
        case .failure(let reason):
            if !isStopped { report(.unreachable(reason: reason.message)) }
            return
        }
        let adopted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.socket = socket
            return true
        }
        guard adopted else {
            close(socket)
            return
        }
        defer {
            state.withLock { state in
                close(state.socket)
                state.socket = -1
            }
        }
        guard send(GPSDReport.watchCommand, on: socket) else {
            if !isStopped { report(.unreachable(reason: "could not send ?WATCH")) }
            return
        }
        // gpsd greets every client with a VERSION line at once; silence means whatever listens there is
        // not gpsd (or is stuck), which counts as no gpsd.
        var pollDescriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&pollDescriptor, 1, timeoutMilliseconds) > 0 else {
            if !isStopped { report(.unreachable(reason: "no answer")) }
            return
        }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var answered = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            answered = true
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let location = GPSDReport.location(fromLine: line), !isStopped {
                    report(.location(location))
                }
            }
        }
        guard !isStopped else { return }
        report(answered ? .disconnected : .unreachable(reason: "closed without answering"))
    }

    private struct Failure: Error {
        let message: String
    }

    /// A connected, blocking socket to gpsd: resolved with `getaddrinfo` (a name or an IPv4/IPv6
    /// address), each address tried in turn, each connect bounded by the answer timeout (a firewall that
    /// drops packets would otherwise hold the thread for minutes).
    private func openSocket() -> Result<Int32, Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var addresses: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &addresses)
        guard resolved == 0, let first = addresses else {
            return .failure(Failure(message: String(cString: gai_strerror(resolved))))
        }
        defer { freeaddrinfo(first) }
        var lastError = ECONNREFUSED
        var current: UnsafeMutablePointer<addrinfo>? = first
        while let address = current {
            current = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, 0)
            guard descriptor >= 0 else {
                lastError = errno
                continue
            }
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            var result = connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                var writable = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&writable, 1, timeoutMilliseconds) > 0 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                    result = error == 0 ? 0 : -1
                    errno = error
                } else {
                    errno = ETIMEDOUT
                }
            }
            if result == 0 {
                _ = fcntl(descriptor, F_SETFL, flags)
                return .success(descriptor)
            }
            lastError = errno
            close(descriptor)
        }
        return .failure(Failure(message: String(cString: strerror(lastError))))
    }

    private func send(_ text: String, on socket: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
