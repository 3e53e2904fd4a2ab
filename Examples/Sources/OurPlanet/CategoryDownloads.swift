import AppSupport
import RxInspect
import RxRelay
import RxSwift

extension EONET {
    /// The `startDownload()` pipeline of the RxSwift book's chapter "Combining Operators in
    /// Practice", the part that runs where the responses arrive: the categories, shared; every
    /// category's events, two categories at a time (`merge(maxConcurrent: 2)`); `scan` folding each
    /// arrival into the categories, with the count of categories done beside them (challenge 2);
    /// `eoCategories.concat(updatedCategories)`.
    ///
    /// A category whose download fails goes to `failures` as a ``DownloadError`` and counts as done
    /// with no events, so the others go on; a failure of the categories request goes to `failures` too
    /// and ends the sequence. Every closure here runs on the responses' threads, which is why this is
    /// the service's and not the (main actor) view controller's.
    public func categoryDownloads(forLast days: Int, failures: PublishRelay<Error>)
        -> Observable<(downloaded: Int, categories: [EOCategory])>
    {
        // Tagged for the inspector (F2): the categories, each category's download, the updated
        // categories.
        let eoCategories = categories.inspect("categories")

        let downloadedEvents = eoCategories.flatMap { [self] categories in
            eventDownloads(of: categories, forLast: days, failures: failures)
        }

        let updatedCategories = eoCategories.flatMap { categories in
            downloadedEvents.scan((downloaded: 0, categories: categories)) { updated, events in
                (
                    downloaded: updated.downloaded + 1,
                    categories: EONET.adding(events, to: updated.categories)
                )
            }
        }
        .inspect("updated categories")

        // The categories at once with nothing downloaded, then after each download. Only the
        // categories request can fail here (each download recovers on its own).
        return
            eoCategories
            .map { categories in (downloaded: 0, categories: categories) }
            .concat(updatedCategories)
            .do(onError: { error in failures.accept(error) })
    }

    /// The events of each of `categories`, two categories at a time (`merge(maxConcurrent: 2)`), one
    /// element per category. A category whose download fails goes to `failures` as a ``DownloadError``
    /// and counts as done with no events, so the others go on. The downloads of `categoryDownloads`,
    /// and a retry of the categories that failed.
    public func eventDownloads(of categories: [EOCategory], forLast days: Int, failures: PublishRelay<Error>)
        -> Observable<[EOEvent]>
    {
        Observable.from(
            categories.map { category in
                events(forLast: days, category: category)
                    .reportingError(
                        to: failures,
                        as: { DownloadError(categoryID: category.id, category: category.name, error: $0) },
                        andReturn: []
                    )
                    .inspect("download \(category.id)")
            }
        )
        .merge(maxConcurrent: 2)
    }

    /// `categories` with `events` added to those they belong to (the `scan`'s step).
    public static func adding(_ events: [EOEvent], to categories: [EOCategory]) -> [EOCategory] {
        categories.map { category in
            let eventsForCategory = EONET.filteredEvents(events: events, forCategory: category)
            if !eventsForCategory.isEmpty {
                var cat = category
                // Sorted again: an event of two categories may have arrived first with the other one,
                // and the list is newest first.
                cat.events = (cat.events + eventsForCategory).sorted(by: EOEvent.compareDates)
                return cat
            }
            return category
        }
    }
}
