import CoreBluetooth
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest
import XCTest

final class PeripheralRequestTests: XCTestCase {
    private func path(_ attribute: CBAttribute) -> DBusObjectPath { DBusObjectPath(rawValue: attribute.objectPath)! }

    func testTwoReadsInFlightAreEachAnsweredWithTheirOwnValue() throws {
        let h = PeripheralHarness()
        let (service, dynamic, _, _) = TestService.make()
        try h.add(service, at: 100)
        let reads = h.record({ h.manager.observeDidReceiveRead() }, at: 150)
        let first = h.call(at: 200) { h.bluez.read(self.path(dynamic)) }
        let second = h.call(at: 300) { h.bluez.read(self.path(dynamic), offset: 1) }
        h.advance(to: 350)
        XCTAssertEqual(reads.events.map(\.time), [200, 300])
        let requests = reads.events.compactMap(\.value.element)
        XCTAssertEqual(requests.map(\.offset), [0, 1])
        XCTAssertTrue(requests.allSatisfy { $0.characteristic === dynamic })
        // The central is the device BlueZ named, its update length the MTU BlueZ gave less 3.
        XCTAssertEqual(requests.first?.central.maximumUpdateValueLength, 182)
        XCTAssertEqual(requests.first?.central.identifier.uuidString, "00AABBCC-DDEE-8000-8000-112233445566")
        XCTAssertTrue(first.events.isEmpty && second.events.isEmpty)
        // Answered in the other order, each with its own value.
        h.at(400) {
            requests[1].value = Data([0xB2])
            h.manager.respond(to: requests[1], withResult: .success)
        }
        h.at(500) {
            requests[0].value = Data([0xA1, 0xA2])
            h.manager.respond(to: requests[0], withResult: .success)
        }
        h.advance(to: 600)
        XCTAssertEqual(first.events, [.next(500, .bytes([0xA1, 0xA2])), .completed(500)])
        XCTAssertEqual(second.events, [.next(400, .bytes([0xB2])), .completed(400)])
    }

    func testRespondingAfterDisposeAnswersOnceAndNothingTwice() throws {
        let h = PeripheralHarness()
        let (service, dynamic, _, _) = TestService.make()
        try h.add(service, at: 100)
        let reads = h.record({ h.manager.observeDidReceiveRead() }, at: 150, until: 250)
        let read = h.call(at: 200) { h.bluez.read(self.path(dynamic)) }
        h.advance(to: 300)
        let request = try XCTUnwrap(reads.events.first?.value.element)
        // The subscription is gone; the request still waits for its answer.
        h.at(400) {
            request.value = Data([7])
            h.manager.respond(to: request, withResult: .success)
        }
        h.at(500) { h.manager.respond(to: request, withResult: .readNotPermitted) }
        h.advance(to: 20_000)
        XCTAssertEqual(read.events, [.next(400, .bytes([7])), .completed(400)])
        // Nobody observes now: the next read is answered at once from the value last published (none).
        let later = h.call(at: 21_000) { h.bluez.read(self.path(dynamic)) }
        h.advance(to: 21_100)
        XCTAssertEqual(later.events, [.next(21_000, .bytes([])), .completed(21_000)])
    }

    func testAReadNobodyAnswersTimesOutWithFailed() throws {
        let h = PeripheralHarness(responseTimeout: .seconds(2))
        let (service, dynamic, _, _) = TestService.make()
        try h.add(service, at: 100)
        let reads = h.record({ h.manager.observeDidReceiveRead() }, at: 150)
        let read = h.call(at: 200) { h.bluez.read(self.path(dynamic)) }
        h.advance(to: 3_000)
        XCTAssertEqual(read.events, [.next(2_200, .failed), .completed(2_200)])
        // A response after the timeout does nothing.
        let request = try XCTUnwrap(reads.events.first?.value.element)
        h.manager.respond(to: request, withResult: .success)
        h.advance(to: 4_000)
        XCTAssertEqual(read.events.count, 2)
    }

    func testACachedValueIsAnsweredWithoutTheProgram() throws {
        let h = PeripheralHarness()
        let (service, _, cached, _) = TestService.make()
        try h.add(service, at: 100)
        let reads = h.record({ h.manager.observeDidReceiveRead() }, at: 150)
        let read = h.call(at: 200) { h.bluez.read(self.path(cached)) }
        let past = h.call(at: 300) { h.bluez.read(self.path(cached), offset: 2) }
        h.advance(to: 400)
        XCTAssertEqual(read.events, [.next(200, .bytes([0x01])), .completed(200)])
        XCTAssertEqual(past.events.first?.value.element, .error("org.bluez.Error.InvalidOffset"))
        XCTAssertTrue(reads.events.isEmpty)
    }

    func testWrites() throws {
        let h = PeripheralHarness()
        let (service, dynamic, _, writable) = TestService.make()
        try h.add(service, at: 100)
        // Nobody observes writes yet: refused.
        let unobserved = h.call(at: 150) { h.bluez.write(self.path(writable), [1]) }
        let writes = h.record({ h.manager.observeDidReceiveWrite() }, at: 160)
        let notWritable = h.call(at: 200) { h.bluez.write(self.path(dynamic), [1]) }
        let accepted = h.call(at: 300) { h.bluez.write(self.path(writable), [2, 3]) }
        let refused = h.call(at: 400) { h.bluez.write(self.path(writable), [4]) }
        let command = h.call(at: 500) { h.bluez.write(self.path(writable), [5], withoutResponse: true) }
        h.advance(to: 550)
        XCTAssertEqual(unobserved.events.first?.value.element, .error("org.bluez.Error.NotSupported"))
        XCTAssertEqual(notWritable.events, [.next(200, .notPermitted), .completed(200)])
        XCTAssertEqual(writes.events.map(\.time), [300, 400, 500])
        let requests = writes.events.compactMap(\.value.element)
        XCTAssertEqual(requests.map { $0.map { $0.value } }, [[Data([2, 3])], [Data([4])], [Data([5])]])
        XCTAssertEqual(command.events, [.next(500, .empty), .completed(500)])
        h.at(600) { h.manager.respond(to: requests[0][0], withResult: .success) }
        h.at(700) { h.manager.respond(to: requests[1][0], withResult: .invalidAttributeValueLength) }
        h.advance(to: 800)
        XCTAssertEqual(accepted.events, [.next(600, .empty), .completed(600)])
        XCTAssertEqual(refused.events, [.next(700, .error("org.bluez.Error.InvalidValueLength")), .completed(700)])
    }

    func testSubscriptionsAreCountedAndUpdatesNotifyWhileSubscribed() throws {
        let h = PeripheralHarness()
        let (service, dynamic, cached, _) = TestService.make()
        try h.add(service, at: 100)
        let subscribes = h.record({ h.manager.observeOnSubscribe().map { $0.1.uuid } }, at: 150)
        let unsubscribes = h.record({ h.manager.observeOnUnsubscribe().map { $0.1.uuid } }, at: 150)
        let ready = h.record({ h.manager.observeIsReadyToUpdateSubscribers().map { true } }, at: 150)
        var results: [Bool] = []
        h.at(200) { results.append(h.manager.updateValue(Data([1]), for: dynamic, onSubscribedCentrals: nil)) }
        _ = h.call(at: 300) { h.bluez.startNotify(self.path(dynamic)) }
        _ = h.call(at: 310) { h.bluez.startNotify(self.path(dynamic)) }
        h.at(400) { results.append(h.manager.updateValue(Data([2]), for: dynamic, onSubscribedCentrals: nil)) }
        h.at(500) { results.append(h.manager.updateValue(Data([2]), for: dynamic, onSubscribedCentrals: nil)) }
        _ = h.call(at: 600) { h.bluez.stopNotify(self.path(dynamic)) }
        _ = h.call(at: 610) { h.bluez.stopNotify(self.path(dynamic)) }
        h.at(700) { results.append(h.manager.updateValue(Data([3]), for: dynamic, onSubscribedCentrals: nil)) }
        let notNotifiable = h.call(at: 800) { h.bluez.startNotify(self.path(cached)) }
        h.advance(to: 900)
        XCTAssertEqual(results, [false, true, true, false])
        XCTAssertEqual(subscribes.events, [.next(300, CBUUID(string: "2A37"))])
        XCTAssertEqual(unsubscribes.events, [.next(600, CBUUID(string: "2A37"))])
        XCTAssertEqual(ready.events, [.next(300, true)])
        XCTAssertEqual(dynamic.subscribedCentrals?.count, 0)
        XCTAssertEqual(notNotifiable.events.first?.value.element, .error("org.bluez.Error.NotSupported"))
        // Notifying on and off, and one Value per update while subscribed, also for the same value.
        let changes = h.bluez.propertyChanges.map { event in
            (event.time, event.value.element?[1].stringKeyed?.mapValues(\.unwrapped) ?? [:])
        }
        XCTAssertEqual(changes.map(\.0), [300, 400, 500, 600])
        XCTAssertEqual(
            changes.map(\.1),
            [
                ["Notifying": .bool(true)], ["Value": .bytes([2])], ["Value": .bytes([2])], ["Notifying": .bool(false)],
            ])
    }

    func testAReleasedManagerAnswersWhatWaitsAndLeavesNothing() throws {
        let h = PeripheralHarness()
        let (service, dynamic, _, writable) = TestService.make()
        try h.add(service, at: 100)
        let reads = h.record({ h.manager.observeDidReceiveRead() }, at: 150)
        let writes = h.record({ h.manager.observeDidReceiveWrite() }, at: 150)
        let read = h.call(at: 200) { h.bluez.read(self.path(dynamic)) }
        let write = h.call(at: 210) { h.bluez.write(self.path(writable), [1]) }
        h.advance(to: 250)
        XCTAssertEqual(reads.events.count, 1)
        XCTAssertEqual(writes.events.count, 1)
        h.at(300) { h.releaseManager() }
        h.advance(to: 400)
        XCTAssertEqual(read.events, [.next(300, .failed), .completed(300)])
        XCTAssertEqual(write.events, [.next(300, .failed), .completed(300)])
        XCTAssertFalse(h.exportsAnything())
        XCTAssertTrue(h.bluez.applications.isEmpty)
    }
}
