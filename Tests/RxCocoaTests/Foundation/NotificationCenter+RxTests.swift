import Foundation
import RxCocoa
import RxSwift
import RxTest
import XCTest

final class NotificationCenterRxTests: RxLeakCheckingTestCase {
    private let ping = Notification.Name("NotificationCenterRxTests.ping")

    func testPostedNotificationsAreDeliveredUntilDisposal() {
        let center = NotificationCenter()
        var received: [Int] = []
        let subscription = center.rx.notification(ping).subscribe(onNext: { notification in
            received.append(notification.userInfo?["n"] as? Int ?? -1)
        })
        center.post(name: ping, object: nil, userInfo: ["n": 1])
        center.post(name: Notification.Name("other"), object: nil, userInfo: ["n": 9])
        center.post(name: ping, object: nil, userInfo: ["n": 2])
        subscription.dispose()
        center.post(name: ping, object: nil, userInfo: ["n": 3])
        XCTAssertEqual(received, [1, 2])
    }

    func testTheObjectFiltersTheSender() {
        let center = NotificationCenter()
        let sender = NSObject()
        let other = NSObject()
        var count = 0
        let subscription = center.rx.notification(ping, object: sender).subscribe(onNext: { notification in
            XCTAssertTrue(notification.object as AnyObject === sender)
            count += 1
        })
        center.post(name: ping, object: sender)
        center.post(name: ping, object: other)
        XCTAssertEqual(count, 1)
        subscription.dispose()
    }

    func testTheDefaultCenterAndANilNameReceiveEverything() {
        var names: [Notification.Name] = []
        let subscription = NotificationCenter.default.rx.notification(nil, object: self)
            .subscribe(onNext: { names.append($0.name) })
        NotificationCenter.default.post(name: ping, object: self)
        NotificationCenter.default.post(name: Notification.Name("second"), object: self)
        subscription.dispose()
        XCTAssertEqual(names, [ping, Notification.Name("second")])
    }

    func testNotificationsAsADriverInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let center = NotificationCenter()
            let observer = scheduler.createObserver(String.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) {
                subscription = center.rx.notification(self.ping)
                    .map { $0.userInfo?["text"] as? String ?? "" }
                    .asDriver(onErrorJustReturn: "")
                    .drive(observer)
            }
            scheduler.scheduleAt(210) { center.post(name: self.ping, object: nil, userInfo: ["text": "hello"]) }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.scheduleAt(310) { center.post(name: self.ping, object: nil, userInfo: ["text": "late"]) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(211, "hello")])
        }
    }

    func testEveryNSObjectHasTheReactiveNamespace() {
        let label = Label()
        let binding = Observable.just("text").bind(to: label.rx.text)
        XCTAssertEqual(label.text, "text")
        binding.dispose()
    }
}

/// An NSObject subclass extended the way RxCocoa users extend UIKit classes.
private final class Label: NSObject {
    var text: String?
}

extension Reactive where Base: Label {
    fileprivate var text: Binder<String?> {
        Binder(base) { label, text in label.text = text }
    }
}
