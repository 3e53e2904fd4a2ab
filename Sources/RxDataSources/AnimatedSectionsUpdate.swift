import RxSwift

/// How an animated data source brings its view from the sections it shows to new ones: the first
/// sections, a view that is not showing, a `.reload` decision and sections that cannot be diffed are a
/// reload; otherwise each changeset is one batch update, in order, all of them inside one
/// `performChangesets(_:)` (RxDataSources' animated data sources, for tables and collections alike).
@MainActor
struct AnimatedSectionsUpdate<Section: AnimatableSectionModelType, View: AnimatableSectionedView> {
    let view: View
    let animationConfiguration: AnimationConfiguration

    /// Shows `newSections`; `isFirst` is true for the binding's first element.
    func apply(
        _ newSections: [Section], isFirst: Bool, current: [Section], setSections: ([Section]) -> Void,
        decide: ([Changeset<Section>]) -> ViewTransition
    ) {
        guard !isFirst, view.isShowing else {
            reload(newSections, setSections)
            return
        }
        let differences: [Changeset<Section>]
        do {
            differences = try Diff.differencesForSectionedView(initialSections: current, finalSections: newSections)
        } catch {
            Hooks.dataSourceErrorHandler(error)
            reload(newSections, setSections)
            return
        }
        switch decide(differences) {
        case .reload:
            reload(newSections, setSections)
        case .animated:
            view.performChangesets {
                for difference in differences {
                    let updates = {
                        setSections(difference.finalSections)
                        view.batchUpdates(difference, animationConfiguration: animationConfiguration)
                    }
                    if animationConfiguration.animatesChanges {
                        view.performBatchUpdates(updates)
                    } else {
                        view.performBatchUpdatesWithoutAnimation(updates)
                    }
                }
            }
        }
    }

    private func reload(_ sections: [Section], _ setSections: ([Section]) -> Void) {
        setSections(sections)
        view.reloadData()
    }
}
