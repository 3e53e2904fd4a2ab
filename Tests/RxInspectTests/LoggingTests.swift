import RxInspect
import RxSwift
import RxTest
import Synchronization
import Testing

extension InspectorSuites {
    @Suite struct Logging {
        @Test func aGlobLogsTheTagsItMatchesAsEventsHappen() {
            withVirtualInspector { scheduler, inspector in
                let lines = Lines()
                inspector.log("sea*", to: { lines.append($0) })
                let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
                _ = scheduler.start { source.inspect("search").inspect("other") }
                let expected = inspector.events(of: "search").map { "[search] \($0)" }
                #expect(lines.all == expected)
                #expect(expected.count == 4)
                #expect(lines.all[1].hasPrefix("[search] #"))
                #expect(lines.all[1].hasSuffix(" next(1) @ 210 on \(InspectedThread.current)"))
            }
        }

        @Test func aRegexMatchesTheWholeTagAndLoggingStops() {
            withVirtualInspector { scheduler, inspector in
                let lines = Lines()
                inspector.log(.regex("o.h[a-z]r"), to: { lines.append($0) })
                let subject = PublishSubject<String>()
                let subscription = subject.inspect("other").inspect("others").subscribe()
                subject.onNext("a")
                inspector.stopLogging(.regex("o.h[a-z]r"))
                subject.onNext("b")
                subscription.dispose()
                #expect(lines.all.count == 2)
                #expect(lines.all.allSatisfy { $0.hasPrefix("[other] ") })
                #expect(lines.all[1].contains("next(a)"))
            }
        }

        @Test func aPatternAddedLaterAppliesToTagsAlreadyLoggedUnderAnother() {
            withVirtualInspector { _, inspector in
                let lines = Lines()
                inspector.log("a", to: { lines.append("1 " + $0) })
                let subject = PublishSubject<Int>()
                let subscription = subject.inspect("a").inspect("ab").subscribe()
                subject.onNext(1)
                inspector.log("a*", to: { lines.append("2 " + $0) })
                subject.onNext(2)
                subscription.dispose()
                let nexts = lines.all.filter { $0.contains("next(") }.map { $0.prefix(5) }
                #expect(nexts == ["1 [a]", "1 [a]", "2 [a]", "2 [ab"])
            }
        }

        @Test func globs() {
            let pattern: TagPattern = "cell-?*"
            #expect(pattern.matches("cell-1"))
            #expect(pattern.matches("cell-12"))
            #expect(!pattern.matches("cell-"))
            #expect(TagPattern.glob("*").matches(""))
            #expect(TagPattern.glob("a*b*c").matches("aXbYbc"))
            #expect(!TagPattern.glob("a*b").matches("aXbY"))
            #expect(!TagPattern.regex("(").matches("("))
        }
    }
}
