import RxCocoa
import RxCocoaInspect
import RxInspect
import RxSwift
import RxTest
import Testing

extension InspectorSuites {
    /// `inspect` on ControlProperty and ControlEvent (the RxCocoaInspect product), on the main actor as
    /// controls are.
    @Suite struct Controls {
        @MainActor @Test func aTaggedControlPropertyStaysOneItsValuesRecordedAndWritesReachTheControl() {
            withVirtualInspector { _, inspector in
                let text = BehaviorSubject<String?>(value: nil)
                var written: [String?] = []
                let property = ControlProperty(values: text, valueSink: AnyObserver { written.append($0.element!) })
                // Still a ControlProperty: `orEmpty` is there.
                let cities: ControlProperty<String> = property.inspect("city").orEmpty
                var received: [String] = []
                let subscription = cities.subscribe(onNext: { received.append($0) })
                text.onNext("Paris")
                #expect(received == ["", "Paris"])
                #expect(
                    inspector.events(of: "city").filter { $0.kind == .next }.map(\.value) == [
                        "nil", "Optional(\"Paris\")",
                    ])
                property.inspect("city").onNext("Berlin")
                #expect(written == ["Berlin"])
                subscription.dispose()
                #expect(inspector.events(of: "city").last?.kind == .dispose)
            }
        }

        @MainActor @Test func aTaggedControlEventStaysOneAndRecordsEachOccurrence() {
            withVirtualInspector { _, inspector in
                let taps = PublishSubject<Void>()
                let tagged: ControlEvent<Void> = ControlEvent(events: taps).inspect("tap")
                var count = 0
                let subscription = tagged.subscribe(onNext: { count += 1 })
                taps.onNext(())
                taps.onNext(())
                #expect(count == 2)
                #expect(inspector.counts(of: "tap") == InspectedCounts(subscribe: 1, next: 2))
                subscription.dispose()
            }
        }
    }
}
