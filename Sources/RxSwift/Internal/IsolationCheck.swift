import Dispatch

// The run-time half of the isolation check: the call site a checked closure carries, the test that it
// runs on its actor, and the report (the closures are wrapped by the overloads of
// `ClosureIsolation.swift`).

#if canImport(Glibc)
    import Glibc

    // glibc hides these without _GNU_SOURCE; libdispatch's is not in its Swift overlay.
    @_silgen_name("pthread_getname_np")
    private func rxThreadName(_ thread: pthread_t, _ name: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32
#elseif canImport(Darwin)
    import Darwin

    private func rxThreadName(_ thread: pthread_t, _ name: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32 {
        pthread_getname_np(thread, name, length)
    }
#endif

@_silgen_name("dispatch_queue_get_label")
private func rxQueueLabel(_ queue: OpaquePointer?) -> UnsafePointer<CChar>?

/// Where a checked closure was handed to an operator: the operator, the caller's file (as `#fileID`) and
/// line. Built once per checked closure, in debug builds only.
@usableFromInline
struct IsolationCallSite: Sendable {
    let operatorName: StaticString
    let fileID: StaticString
    let line: UInt

    @usableFromInline
    init(_ operatorName: StaticString, _ fileID: StaticString, _ line: UInt) {
        self.operatorName = operatorName
        self.fileID = fileID
        self.line = line
    }

}

/// Reports to ``Hooks/isolationViolationHandler`` unless the caller runs on `isolation`'s executor.
/// Debug builds only.
@inline(never)
@usableFromInline
func rxVerifyIsolation(_ isolation: any Actor, _ site: IsolationCallSite) {
    if isolation is MainActor {
        // On Linux the main actor's executor is the main queue; `isMainThread` also answers true on a
        // thread of libdispatch's running the main queue (under `dispatchMain()`).
        if isMainThread { return }
    } else if let isCurrent = currentExecutorCheck {
        if isCurrent(isolation) { return }
    } else {
        // No non-trapping check in this runtime, so nothing can be told without stopping: no report.
        return
    }
    Hooks.reportIsolationViolation(
        IsolationViolation(
            message: isolationViolationMessage(isolation, site), operatorName: site.operatorName.description,
            file: site.fileID.description, line: site.line))
}

/// The report: what was called where, and what to write instead.
func isolationViolationMessage(_ isolation: any Actor, _ site: IsolationCallSite) -> String {
    let actorName = isolation is MainActor ? "the main actor" : "actor \(type(of: isolation))"
    return """
        swift-rx: the closure given to `\(site.operatorName)` at \(site.fileID):\(site.line) is isolated to \
        \(actorName) (it was written there), but swift-rx is calling it on \(currentThreadDescription()), \
        off that actor: it would race with the actor's own code. Deliver to the actor before this \
        operator (`observe(on: MainScheduler.instance)`, `asDriver`, `asSignal`, a `Binder`), or build \
        this part of the chain in a nonisolated function. See RxCocoa's article "Swift 6 and actors".
        """
}

/// The current thread, as a person debugging would look for it: its name and its dispatch queue's label.
func currentThreadDescription() -> String {
    var parts: [String] = []
    #if canImport(Glibc) || canImport(Darwin)
        var name = [CChar](repeating: 0, count: 64)
        if rxThreadName(pthread_self(), &name, name.count) == 0, name[0] != 0 {
            parts.append(
                "thread \"\(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))\"")
        }
    #endif
    // A null queue asks for the current queue's label.
    if let label = rxQueueLabel(nil).map({ String(cString: $0) }), !label.isEmpty {
        parts.append("queue \"\(label)\"")
    }
    if isMainThread { parts.append("the main thread") }
    return parts.isEmpty ? "an unnamed thread" : parts.joined(separator: ", ")
}

/// The runtime's non-trapping form of the check `preconditionIsolated` makes
/// (`swift_task_isCurrentExecutorWithFlags` with no flags: answer, do not assert). It is not public
/// API, so it is looked up by name; when it is missing, only main-actor closures are checked.
private let currentExecutorCheck: (@Sendable (any Actor) -> Bool)? = {
    #if canImport(Glibc) || canImport(Darwin)
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
        #else
            let everywhere: UnsafeMutableRawPointer? = nil
        #endif
        guard let symbol = dlsym(everywhere, "swift_task_isCurrentExecutorWithFlags") else { return nil }
        // The executor reference is two words (identity, implementation), passed as two arguments;
        // the Swift calling convention passes them as C does.
        typealias Check = @convention(c) (UnsafeRawPointer?, UInt, UInt) -> Bool
        let check = unsafeBitCast(symbol, to: Check.self)
        guard MemoryLayout<UnownedSerialExecutor>.size == 2 * MemoryLayout<UInt>.size else { return nil }
        return { isolation in
            let words = unsafeBitCast(isolation.unownedExecutor, to: (UnsafeRawPointer?, UInt).self)
            return check(words.0, words.1, 0)
        }
    #else
        return nil
    #endif
}()
