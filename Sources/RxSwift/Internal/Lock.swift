import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Mutex where Value: ~Copyable {
    /// `withLock`, plus annotations that tell the thread sanitizer about the lock.
    ///
    /// Why: on Linux a contended `Mutex` is handed over inside the (uninstrumented) Synchronization
    /// library and the kernel's futex, so the thread sanitizer never sees the hand-off and reports
    /// races on the data the lock protects. When the sanitizer's runtime is loaded, this marks the
    /// lock's address as acquired and released; otherwise it costs two nil checks.
    /// Every lock in swift-rx goes through here. `body` must never call out to user or downstream code.
    @_spi(RxInternal)
    public borrowing func withAnnotatedLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try withLock { (value: inout sending Value) throws(E) -> sending Result in
            // One relaxed load of a statically initialized global per critical section; the lazily
            // resolved hooks (a `swift_once` per read) are only read when the sanitizer is there.
            if threadSanitizerPresence.load(ordering: .relaxed) == ThreadSanitizer.absent {
                return try body(&value)
            }
            guard let sanitizer = ThreadSanitizer.resolvedHooks() else { return try body(&value) }
            let token = withUnsafePointer(to: self) { UnsafeRawPointer($0) }
            sanitizer.acquire(token)
            defer { sanitizer.release(token) }
            return try body(&value)
        }
    }
}

extension Mutex where Value == Void {
    /// Runs `body` under the lock. For classes whose state lives in their own (`@unchecked Sendable`)
    /// stored properties: the state may hold non-`Sendable` elements, which `withLock`'s `sending`
    /// signature would refuse. `body` must never call out to user or downstream code.
    @_spi(RxInternal)
    public borrowing func locked<Result>(_ body: () -> Result) -> Result {
        withAnnotatedLock { _ in UncheckedSendable(body()) }.value
    }
}

extension Mutex where Value == Void {
    /// ``locked(_:)`` for inlinable per-element paths (a Driver stage's sharing), with the sanitizer's
    /// case out of line so that the lock inlines (the `DrivePumping` benchmark).
    @inlinable
    borrowing func lockedInline<Result>(_ body: () -> Result) -> Result {
        withLock { _ in
            if threadSanitizerIsAbsent { return UncheckedSendable(body()) }
            return UncheckedSendable(withSanitizerAnnotations(of: self, body))
        }.value
    }
}

/// Whether the thread sanitizer is known to be absent (one relaxed load).
@inlinable
var threadSanitizerIsAbsent: Bool {
    threadSanitizerPresence.load(ordering: .relaxed) == ThreadSanitizer.absent
}

/// Runs `body` between the sanitizer's acquire and release annotations on `mutex`, when it is there.
@usableFromInline @inline(never)
func withSanitizerAnnotations<Result>(of mutex: borrowing Mutex<Void>, _ body: () -> Result) -> Result {
    guard let sanitizer = ThreadSanitizer.resolvedHooks() else { return body() }
    let token = withUnsafePointer(to: mutex) { UnsafeRawPointer($0) }
    sanitizer.acquire(token)
    defer { sanitizer.release(token) }
    return body()
}

/// Whether the thread sanitizer's runtime is loaded: ``ThreadSanitizer/unknown`` until first asked.
/// Statically initialized (no lazy-global check on the per-lock path).
@usableFromInline
let threadSanitizerPresence = Atomic<Int>(ThreadSanitizer.unknown)

/// The thread sanitizer's annotation entry points, found at run time: present only in binaries built
/// with `-sanitize=thread`.
@usableFromInline
struct ThreadSanitizer: Sendable {
    static var unknown: Int { 0 }
    @inlinable static var absent: Int { 1 }
    static var present: Int { 2 }

    /// The hooks, recording in ``threadSanitizerPresence`` whether there are any.
    @inline(never)
    static func resolvedHooks() -> ThreadSanitizer? {
        let hooks = Self.hooks
        threadSanitizerPresence.store(hooks == nil ? absent : present, ordering: .relaxed)
        return hooks
    }

    typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

    let acquire: Annotation
    let release: Annotation

    /// The annotation functions when the sanitizer's runtime is loaded, otherwise `nil`.
    static let hooks: ThreadSanitizer? = {
        guard let acquire = symbol("__tsan_acquire"), let release = symbol("__tsan_release") else { return nil }
        return ThreadSanitizer(acquire: acquire, release: release)
    }()

    private static func symbol(_ name: String) -> Annotation? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: Annotation.self)
    }
}
