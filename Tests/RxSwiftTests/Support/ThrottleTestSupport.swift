import Foundation
import XCTest

@testable import RxSwift

/// How long a thread's sends took while another thread held the drain loop they queue behind: up to
/// the backlog limit (`free`), then past it (`throttled`).
struct ThrottledFlood {
    let free: TimeInterval
    let throttled: TimeInterval

    /// Sends `free` times, then `extra` times more, timing each part.
    init(free: Int, extra: Int, send: (Int) -> Void) {
        let freeStart = Date()
        for index in 0..<free { send(index) }
        self.free = Date().timeIntervalSince(freeStart)
        let throttledStart = Date()
        for index in free..<(free + extra) { send(index) }
        throttled = Date().timeIntervalSince(throttledStart)
    }
}

/// Up to the limit nobody waited (each wait would be 20 ms, seconds in all); past it the sender waited
/// out ``SenderThrottle/longestWait`` `waits` times, with a third of slack for the clock.
func assertThrottled(_ flood: ThrottledFlood, waits: Int, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertLessThan(flood.free, 1, "sends under the limit waited", file: file, line: line)
    XCTAssertGreaterThan(
        flood.throttled, 0.02 * Double(waits) * 0.66, "sends past the limit did not wait", file: file, line: line)
}
