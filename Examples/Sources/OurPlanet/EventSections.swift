import Foundation
import RxDataSources

/// One row of the events table: the event and the line it shows.
///
/// Its identity is EONET's event id, so an event that comes again (a retry, a second download) is the
/// same row; two rows are equal when they show the same line, so a change a person can see reloads the
/// row and one they cannot (a new description, shown only in the detail pane) does not flash it.
public struct EventRow: IdentifiableType, Equatable, Sendable {
    public let event: EOEvent
    /// The row's line, ``EventsViewController/row(for:)``.
    public let text: String

    public init(event: EOEvent) {
        self.event = event
        text = EventsViewController.row(for: event)
    }

    public var identity: String { event.id }

    public static func == (lhs: EventRow, rhs: EventRow) -> Bool {
        lhs.identity == rhs.identity && lhs.text == rhs.text
    }
}

/// A month of events: its name (`November 2026`, the section's identity, so a month keeps its section
/// while its events come and go) and its rows.
public typealias EventSection = AnimatableSectionModel<String, EventRow>

extension EventsViewController {
    /// `events` grouped by the month of their date (when they closed, or their latest observation),
    /// newest month first and newest first within a month; events without a date last, as
    /// ``EOEvent/compareDates(lhs:rhs:)`` orders them. An event listed twice is shown once (the diff
    /// needs unique identities).
    nonisolated public static func sections(of events: [EOEvent]) -> [EventSection] {
        var seen = Set<String>()
        var sections: [EventSection] = []
        for event in events.sorted(by: EOEvent.compareDates) where seen.insert(event.id).inserted {
            let month = event.date.map(monthName) ?? "Undated"
            if sections.last?.model == month {
                sections[sections.count - 1].items.append(EventRow(event: event))
            } else {
                sections.append(EventSection(model: month, items: [EventRow(event: event)]))
            }
        }
        return sections
    }

    /// A reload when no row shown before (`shown`, what the data source holds while it decides) is
    /// still shown once `changesets` are applied (a category opened, or another one; the first
    /// categories): marking every row of a new list would tell a person nothing; otherwise the changes
    /// are marked. Both of OurPlanet's tables decide so.
    nonisolated static func transition<Section: AnimatableSectionModelType>(
        from shown: [Section], by changesets: [Changeset<Section>]
    ) -> ViewTransition {
        guard let final = changesets.last?.finalSections else { return .animated }
        let before = Set(shown.flatMap { $0.items.map(\.identity) })
        let after = Set(final.flatMap { $0.items.map(\.identity) })
        return before.isDisjoint(with: after) ? .reload : .animated
    }

    /// A section's header: `November 2026 · 12 events`.
    nonisolated public static func header(of section: EventSection) -> String {
        "\(section.model) · \(section.items.count) event\(section.items.count == 1 ? "" : "s")"
    }

    /// `November 2026`, in UTC as EONET's dates are.
    nonisolated static func monthName(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.locale = Locale(identifier: "en_US_POSIX")
        let components = calendar.dateComponents([.year, .month], from: date)
        let names = calendar.standaloneMonthSymbols
        return "\(names[components.month! - 1]) \(components.year!)"
    }
}
