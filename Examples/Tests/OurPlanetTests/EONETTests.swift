import Foundation
import RxSwift
import RxTest
import XCTest

@testable import OurPlanet

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The EONET service in virtual time (one marble frame is 10 ticks): the request's URL and decoding,
/// the categories requested once for every subscriber, a category's open and closed events one after
/// the other, and every failure reaching the subscriber.
final class EONETTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var virtual: VirtualEONET!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0)
        virtual = VirtualEONET(scheduler: scheduler)
    }

    private var wildfires: EOCategory { EOCategory(id: "wildfires", name: "Wildfires") }

    func testCategoriesAreSortedByNameAndRequestedOnceForEverySubscriber() {
        virtual.answerCategories(["wildfires", "drought", "seaLakeIce"], "--(r|)")
        let first = scheduler.createObserver([String].self)
        let second = scheduler.createObserver([String].self)
        let bag = DisposeBag()
        scheduler.scheduleAt(0) {
            self.virtual.eonet.categories.map { $0.map(\.name) }.subscribe(first).disposed(by: bag)
        }
        // Long after the answer completed: the replay, not a second request (`.whileConnected` would
        // have asked again).
        scheduler.scheduleAt(100) {
            self.virtual.eonet.categories.map { $0.map(\.name) }.subscribe(second).disposed(by: bag)
        }
        scheduler.start()

        let names = ["Drought", "Sea and Lake Ice", "Wildfires"]
        XCTAssertMarbles(first, "--(n|)", values: ["n": names])
        XCTAssertEqual(second.events, [.next(100, names), .completed(100)])
        XCTAssertMarbles(virtual.answers["categories"]!.subscriptions, "^-!", subscribed: 0)
        XCTAssertEqual(virtual.requests, [.next(0, "/api/v3/categories")])
    }

    /// Open first; closed asked for only when open has completed (`concat`), so one request at a time;
    /// the two joined into one array.
    func testOpenThenClosedEventsOfACategoryJoinedIntoOneElement() {
        virtual.answerEvents("wildfires", "open", "---(r|)")
        virtual.answerEvents("wildfires", "closed", "--(r|)")
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            self.virtual.eonet.events(forLast: 360, category: self.wildfires).map { events in
                [events.filter { $0.closeDate == nil }.count, events.filter { $0.closeDate != nil }.count]
            }
        }

        // 7 open wildfires, and the 15 closed within 360 days (two older ones are left out).
        XCTAssertMarbles(res, "-----(c|)", values: ["c": [7, 15]])
        XCTAssertMarbles(virtual.answers["wildfires/open"]!.subscriptions, "^--!", subscribed: 0)
        XCTAssertEqual(virtual.answers["wildfires/closed"]!.subscriptions, [Subscription(30, 50)])
        XCTAssertEqual(
            virtual.requests,
            [
                .next(0, "/api/v3/events?category=wildfires&days=360&status=open"),
                .next(30, "/api/v3/events?category=wildfires&days=360&status=closed"),
            ])
    }

    func testEventsAreDecodedFromV3() throws {
        virtual.answerEvents("severeStorms", "open", "-(r|)")
        virtual.answerEvents("severeStorms", "closed", "-(r|)")
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            self.virtual.eonet.events(category: EOCategory(id: "severeStorms", name: "Severe Storms"))
        }
        let events = try XCTUnwrap(res.events.first?.value.element)
        XCTAssertEqual(events.count, 12)
        let typhoon = try XCTUnwrap(events.first { $0.id == "EONET_24962" })
        XCTAssertEqual(typhoon.title, "Typhoon Choi-wan")
        XCTAssertNil(typhoon.closeDate)
        XCTAssertEqual(typhoon.sources, ["JTWC"])
        XCTAssertEqual(typhoon.observationDates.count, 6)
        XCTAssertEqual(typhoon.link, URL(string: "https://eonet.gsfc.nasa.gov/api/v3/events/EONET_24962"))
        let nuri = try XCTUnwrap(events.first { $0.id == "EONET_24947" })
        XCTAssertEqual(nuri.categories, ["severeStorms", "floods"])
        let haishen = try XCTUnwrap(events.first { $0.id == "EONET_24890" })
        XCTAssertEqual(haishen.closeDate, VirtualEONET.now.addingTimeInterval(-20 * 86_400))
        XCTAssertEqual(haishen.date, haishen.closeDate)
    }

    /// A failed open request ends the download with its error; closed is never asked for.
    func testAStatusOutside2xxIsAnError() {
        virtual.answer("wildfires/open", "-(r|)", body: "<html>Internal Server Error</html>", status: 500)
        virtual.answerEvents("wildfires", "closed", "-(r|)")
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            self.virtual.eonet.events(category: self.wildfires).map(\.count)
        }
        let url = "\(VirtualEONET.API)/events?category=wildfires&days=360&status=open"
        XCTAssertMarbles(res, "-#", error: EOError.httpStatus(500, url))
        XCTAssertEqual(virtual.answers["wildfires/closed"]!.subscriptions, [])
    }

    func testABodyThatIsNotJSONIsAnError() {
        virtual.answer(
            "categories", "-(r|)", body: "<html><body>Service temporarily unavailable</body></html>", status: 200)
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            self.virtual.eonet.categories.map(\.count)
        }
        XCTAssertMarbles(res, "-#", error: EOError.invalidJSON("\(VirtualEONET.API)/categories"))
    }

    func testJSONWithoutCategoriesIsAnError() {
        virtual.answer("categories", "-(r|)", body: #"{"title":"EONET Event Categories"}"#, status: 200)
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            self.virtual.eonet.categories.map(\.count)
        }
        XCTAssertMarbles(res, "-#", error: EOError.invalidJSON("/categories"))
    }

    /// A closed request failing in the transport: the open events already received are not given as
    /// if they were all.
    func testATransportErrorReachesTheSubscriber() {
        virtual.answerEvents("wildfires", "open", "-(r|)")
        virtual.answerEvents("wildfires", "closed", "--#", error: URLError(.timedOut))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            self.virtual.eonet.events(category: self.wildfires).map(\.count)
        }
        let url = "\(VirtualEONET.API)/events?category=wildfires&days=360&status=closed"
        XCTAssertMarbles(res, "---#", error: EOError.unreachable(.timedOut, url))
    }

    /// The RxSwift book's `catch { return Observable.empty() }` would complete here; a parameter
    /// that cannot be written is an error, and nothing is requested.
    func testAParameterThatCannotBeWrittenIsAnErrorNotEmpty() {
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            self.virtual.eonet.request(endpoint: "/events", query: ["bbox": Opaque()]).map(\.count)
        }
        XCTAssertEqual(res.events, [.error(0, EOError.invalidParameter("bbox", "Opaque()"))])
        XCTAssertEqual(virtual.requests, [])
    }

    /// An event of two categories counts once in each, and again in neither.
    func testFilteredEventsKeepsACategorysOwnNewEventsNewestFirst() {
        let day: TimeInterval = 86_400
        let old = EOEvent(
            id: "1", title: "Old", categories: ["floods"], observationDates: [VirtualEONET.now - 10 * day])
        let new = EOEvent(
            id: "2", title: "New", categories: ["floods", "severeStorms"], observationDates: [VirtualEONET.now - day])
        let storm = EOEvent(id: "3", title: "Storm", categories: ["severeStorms"], observationDates: [VirtualEONET.now])
        var floods = EOCategory(id: "floods", name: "Floods")
        XCTAssertEqual(EONET.filteredEvents(events: [old, storm, new], forCategory: floods).map(\.id), ["2", "1"])
        floods.events = [new]
        XCTAssertEqual(EONET.filteredEvents(events: [old, storm, new], forCategory: floods).map(\.id), ["1"])
    }
}

/// A value with no textual form of its own.
private struct Opaque {}
