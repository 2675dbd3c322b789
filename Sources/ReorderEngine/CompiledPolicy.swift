/// Why a policy built in code cannot be compiled. Policies loaded from files are checked
/// by the loader first, which reports the same problems with their locations.
public struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A policy checked and prepared for binding: immutable and `Sendable`, so one instance
/// can serve every request of a service.
public struct CompiledPolicy: Sendable {
    /// The policy as given.
    public let policy: Policy

    /// Per row rule, the reference its violations share.
    package let rowRuleReferences: [RuleReference]
    /// Per section rule, the reference its violations share.
    let sectionRuleReferences: [RuleReference]
    /// Per row rule, in file order, the rule's unit prepared for binding.
    let rules: [any CompiledRowRuleKind]
    /// Per section rule, in file order, the rule's unit prepared for binding.
    let sectionRules: [any CompiledSectionRuleKind]
    /// Per section rule, what a section move does to the sections it selects (a binding of the
    /// section rules follows section moves with it: ``BoundPolicy/follow(_:)``).
    let sectionMoveEffects: [SectionMoveEffect]
    /// What this policy's decisions keep in place of a first violation when there is none
    /// (``Decision``): its own, so that threads deciding with their own copies share no
    /// reference count.
    let noViolation = Violation.makePlaceholder()

    /// Checks `policy` and prepares it.
    public init(_ policy: Policy) throws(PolicyError) {
        self.policy = policy
        var ids = Set<String>()
        for id in policy.rules.map(\.metadata.id) + policy.sectionRules.map(\.metadata.id) {
            guard ids.insert(id).inserted else { throw PolicyError("rule id '\(id)' is used twice") }
        }
        var rules: [any CompiledRowRuleKind] = []
        rules.reserveCapacity(policy.rules.count)
        for rule in policy.rules {
            do {
                rules.append(try rule.kind.unit.compile())
            } catch {
                throw PolicyError("rule '\(rule.metadata.id)': \(error.message)")
            }
        }
        self.rules = rules
        var sectionRules: [any CompiledSectionRuleKind] = []
        for rule in policy.sectionRules {
            do {
                sectionRules.append(try rule.kind.unit.compile())
            } catch {
                throw PolicyError("rule '\(rule.metadata.id)': \(error.message)")
            }
        }
        self.sectionRules = sectionRules
        sectionMoveEffects = policy.sectionRules.map(\.target.moveEffect)
        rowRuleReferences = policy.rules.enumerated().map { n, rule in
            RuleReference(id: rule.metadata.id, kind: rule.keyword, message: rule.metadata.message, location: rule.metadata.location, ordinal: n)
        }
        sectionRuleReferences = policy.sectionRules.enumerated().map { n, rule in
            RuleReference(id: rule.metadata.id, kind: rule.keyword, message: rule.metadata.message, location: rule.metadata.location,
                          ordinal: policy.rules.count + n)
        }
    }

    /// Binds the policy to a table: linear in the table's size, done once per drag or request.
    public func bind(_ table: Table) -> BoundPolicy {
        BoundPolicy(compiled: self, table: table)
    }

    /// Binds to `table`, whose rows `memo` has numbered: for binding to many orderings of the
    /// same rows (`diff`), where each id/kind/tag test is then asked once per kind of row.
    package func bind(_ table: Table, memo: RowContentMemo) -> BoundPolicy {
        BoundPolicy(compiled: self, table: table, memo: memo)
    }

    /// Binds the section rules alone to `table`: enough to decide section moves (SPEC §2.5;
    /// row rules do not govern them), in time linear in the sections, not the rows. Nothing
    /// but section moves may be asked of it: `diff` decides its leading section moves so,
    /// following each with ``BoundPolicy/follow(_:)`` (no binding again per move).
    package func bindSections(_ table: Table) -> BoundPolicy {
        BoundPolicy(compiled: self, table: table, sectionsOnly: true)
    }
}
