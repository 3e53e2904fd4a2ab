import Dispatch
import RxSwift

/// Renders two event lists for a failure message and finds the first difference.
enum EventDiff {
    static func message<Element: Equatable>(
        _ actual: [Recorded<Event<Element>>], _ expected: [Recorded<Event<Element>>], timed: Bool
    ) -> String? {
        message(actual, expected, timed: timed, equal: ==)
    }

    /// The message for two lists of untimed events of any kind (`Event`, `SingleEvent`,
    /// `MaybeEvent`, `CompletableEvent`), compared with `equal`.
    static func message<Value>(_ actual: [Value], _ expected: [Value], equal: (Value, Value) -> Bool) -> String? {
        let wrap = { (values: [Value]) in values.map { Recorded(time: 0, value: $0) } }
        return message(wrap(actual), wrap(expected), timed: false) { equal($0.value, $1.value) }
    }

    /// `nil` when the lists are equal by `equal`; otherwise both lists side by side, the differing
    /// rows marked, headed by the first difference.
    static func message<Value>(
        _ actual: [Recorded<Value>], _ expected: [Recorded<Value>], timed: Bool,
        equal: (Recorded<Value>, Recorded<Value>) -> Bool
    ) -> String? {
        if actual.count == expected.count, zip(actual, expected).allSatisfy(equal) { return nil }
        func line(_ recorded: Recorded<Value>?) -> String {
            guard let recorded else { return "—" }
            return timed ? "\(recorded.value) @ \(recorded.time)" : "\(recorded.value)"
        }
        let count = Swift.max(actual.count, expected.count)
        var rows: [String] = []
        var firstDifference: String?
        for index in 0..<count {
            let left = index < actual.count ? actual[index] : nil
            let right = index < expected.count ? expected[index] : nil
            let same = left.flatMap { left in right.map { equal(left, $0) } } ?? false
            if !same, firstDifference == nil {
                firstDifference = "first difference at index \(index): expected \(line(right)), got \(line(left))"
            }
            rows.append("\(same ? " " : "✗") \(line(left).padding(to: 28)) \(line(right))")
        }
        return (["events differ (\(firstDifference ?? "")):", "  \("actual".padding(to: 28)) expected"] + rows)
            .joined(separator: "\n")
    }
}

enum LeakCheck {
    /// Waits up to a second for ``Resources/total`` to come back to `expected` (work released on
    /// other threads); returns whether it did.
    static func waitForCount(_ expected: Int32, pause: () -> Void = { sleepBriefly() }) -> Bool {
        let deadline = DispatchTime.now() + .seconds(1)
        while Resources.total != expected {
            if DispatchTime.now() > deadline { return false }
            pause()
        }
        return true
    }

    static func sleepBriefly() {
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(5))
    }

    /// The async form of ``waitForCount(_:)``, which sleeps without blocking a thread.
    static func settle(at expected: Int32) async -> Bool {
        for _ in 0..<200 {
            if Resources.total == expected { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return Resources.total == expected
    }

    /// "leak check: 2 resource(s) still alive (started with 0, ended with 2)".
    static func message(start: Int32) -> String {
        let end = Resources.total
        return "leak check: \(end - start) resource(s) still alive (started with \(start), ended with \(end))"
    }

}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
