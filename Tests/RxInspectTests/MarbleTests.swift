import RxInspect
import RxSwift
import RxTest
import Testing

extension InspectorSuites {
    @Suite struct Marbles {
        @Test func aRecordedWindowRendersInRxTestsGrammarAndReadsBackToTheSameEvents() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(220, 2), .next(240, 1), .next(250, 3), .completed(250),
                ])
                let res = scheduler.start { source.inspect("x") }
                let rendered = inspector.marbles(of: "x", origin: 200)
                #expect(rendered.diagram == "^ab-a(c|)")
                #expect(rendered.values == ["a": "1", "b": "2", "c": "3"])
                let values = Dictionary(
                    uniqueKeysWithValues: rendered.values.map { (Character($0.key), Int($0.value)!) })
                #expect(scheduler.marbleEvents(rendered.diagram, values: values) == res.events)
            }
        }

        @Test func eventsAtTheSubscriptionTimeJoinTheAnchorsGroupAndErrorsAreHashes() {
            withVirtualInspector { scheduler, inspector in
                _ = scheduler.start {
                    Observable.just("s").concat(Observable<String>.error(RxTestError("e"))).inspect("x")
                }
                let rendered = inspector.marbles(of: "x", origin: 200)
                #expect(rendered.diagram == "(^a#)")
                #expect(rendered.values == ["a": "s"])
            }
        }

        @Test func theOriginAndFrameLengthAreTheCallers() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([.next(300, 1), .next(500, 2)])
                _ = scheduler.start { source.inspect("x") }
                #expect(inspector.marbles(of: "x", origin: 0, frame: 100).diagram == "--^a-b")
            }
        }
    }
}
