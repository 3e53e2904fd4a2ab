import Dispatch
import RxInspect
import RxSwift
import Synchronization
import Testing

extension InspectorSuites {
    @Suite struct ThreadSafety {
        final class Received: Sendable {
            let values = Mutex<[Int]>([])
        }

        /// Several threads deliver through one tag while another pauses, steps and resumes it, and
        /// another queries it: every subscriber still gets its elements once each, in order (run under
        /// the thread sanitizer in CI).
        @Test func recordingPausingAndQueryingFromSeveralThreads() {
            let inspector = Inspector(capacity: 64)
            inspector.attach()
            defer { inspector.detach() }
            let senders = 4
            let perSender = 2_000
            let received = (0..<senders).map { _ in Received() }
            let subjects = (0..<senders).map { _ in PublishSubject<Int>() }
            let subscriptions = (0..<senders).map { index in
                subjects[index].inspect("stress").subscribe(onNext: { value in
                    received[index].values.withLock { $0.append(value) }
                })
            }
            DispatchQueue.concurrentPerform(iterations: senders + 2) { worker in
                if worker < senders {
                    for value in 0..<perSender { subjects[worker].onNext(value) }
                } else if worker == senders {
                    for _ in 0..<200 {
                        inspector.pause("stress")
                        inspector.step("stress")
                        inspector.resume("stress")
                    }
                } else {
                    for _ in 0..<200 {
                        _ = inspector.subscribers(of: "stress")
                        _ = inspector.events(of: "stress")
                        _ = inspector.counts(of: "stress")
                    }
                }
            }
            inspector.resume("stress")
            for index in 0..<senders {
                #expect(received[index].values.withLock { $0 } == Array(0..<perSender))
            }
            #expect(inspector.counts(of: "stress").next == senders * perSender)
            #expect(inspector.events(of: "stress").count == 64)
            for subscription in subscriptions { subscription.dispose() }
        }
    }
}
