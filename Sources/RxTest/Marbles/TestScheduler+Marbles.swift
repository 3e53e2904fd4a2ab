import RxSwift

extension TestScheduler {
    /// Creates a hot observable from a marble diagram. With `^` the diagram is anchored so that `^`
    /// falls on the subscription time (200); without it, its first frame is time 0.
    ///
    /// A diagram that cannot be read fails the calling test (XCTest or Swift Testing) with a message
    /// that points at the problem, and gives an observable of no events.
    public func createHotObservable<Element>(
        _ diagram: String, values: [Character: Element] = [:], error: Swift.Error = RxTestError.marble,
        file: StaticString = #filePath, fileID: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> TestableObservable<Element> {
        let location = TestFailure.Location(file: file, fileID: fileID, line: line, column: column)
        return createHotObservable(parse(diagram, values: values, error: error, cold: false, at: location))
    }

    /// Creates a cold observable from a marble diagram: its first frame (or `^`) is the moment of each
    /// subscription.
    public func createColdObservable<Element>(
        _ diagram: String, values: [Character: Element] = [:], error: Swift.Error = RxTestError.marble,
        file: StaticString = #filePath, fileID: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> TestableObservable<Element> {
        let location = TestFailure.Location(file: file, fileID: fileID, line: line, column: column)
        return createColdObservable(parse(diagram, values: values, error: error, cold: true, at: location))
    }

    /// The recorded events a diagram stands for (anchored at the subscription time 200 when it has `^`,
    /// otherwise starting at time 0).
    public func marbleEvents<Element>(
        _ diagram: String, values: [Character: Element] = [:], error: Swift.Error = RxTestError.marble,
        file: StaticString = #filePath, fileID: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> [Recorded<Event<Element>>] {
        let location = TestFailure.Location(file: file, fileID: fileID, line: line, column: column)
        return parse(diagram, values: values, error: error, cold: false, at: location)
    }

    /// The subscriptions that subscription diagrams stand for (`^` subscribed, `!` disposed), one
    /// diagram per subscription.
    ///
    /// `subscribed` is the time `^` stands for (200 by default).
    public func marbleSubscriptions(
        _ diagrams: String..., subscribed: TestTime = Defaults.subscribed, file: StaticString = #filePath,
        fileID: String = #fileID, line: UInt = #line, column: UInt = #column
    ) -> [Subscription] {
        diagrams.compactMap { diagram in
            do {
                return try MarbleDiagram.subscription(diagram, frame: marbleFrame, subscribed: subscribed)
            } catch {
                TestFailure.report("\(error)", at: .init(file: file, fileID: fileID, line: line, column: column))
                return nil
            }
        }
    }

    /// Renders recorded events as a marble diagram with this scheduler's frame; with `anchored`, `^`
    /// marks the subscription time (200).
    public func marbles<Element: Equatable>(
        for events: [Recorded<Event<Element>>], values: [Character: Element] = [:], anchored: Bool = true
    ) -> String {
        MarbleDiagram.render(
            events, values: values, frame: marbleFrame, anchor: anchored ? Defaults.subscribed : nil)
    }

    private func parse<Element>(
        _ diagram: String, values: [Character: Element], error: Swift.Error, cold: Bool,
        at location: TestFailure.Location
    ) -> [Recorded<Event<Element>>] {
        do {
            return try MarbleDiagram.events(
                diagram, values: values, error: error, frame: marbleFrame, origin: 0,
                subscribed: cold ? 0 : Defaults.subscribed)
        } catch {
            TestFailure.report(error.description, at: location)
            return []
        }
    }
}
