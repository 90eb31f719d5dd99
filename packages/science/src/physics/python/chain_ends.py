"""Chain ends of the ff14SB model given the terminal group PDBFixer gives a chain end (issue 40), used by mmgbsa.py.

Why. PDBFixer 1.8 adds the C-terminal OXT only to the last residue of a chain (findMissingAtoms:
`residue == chainResidues[-1]`), and OpenMM's Modeller.addHydrogens gives the N-terminal NH3+ hydrogens
only to the first (`isNTerminal = residue == chain._residues[0]`). When a heterogen is written in the
same chain as the protein with no TER between them (the 16 Å-trimmed receptors of data/complexes: NDP
after THR 190 in 1ia1, a second PM2 after THR 229 in 2bm2, CHT after TRP 480 in 2ha3, FES after PHE 545
in 7cnq), the residue before it is not the chain's last, so the docking receptor keeps it as a mid-chain
residue. The MM model leaves the heterogen out (ff14SB has no template for it), and that residue is then
a chain end without its terminal group: OpenMM's template matching fails ("The set of atoms matches THR,
but the bonds are different. Perhaps the chain is missing a terminal group?"), and the whole receptor
got no MM model.

What. The docking receptor is not touched (docking reads its own bytes); in the MM model, a residue whose
backbone C has no bond to another residue and no OXT gets an OXT, and one whose backbone N has no bond to
another residue and fewer hydrogens than an N terminus gets the missing ones: the terminal groups the
docking preparation gives every other chain end (PDBFixer's OXT, Modeller's NH3+), so the ff14SB C- and
N-terminal templates (CTHR, NALA, …; Maier et al., J. Chem. Theory Comput. 2015, 11, 3696) match. A
chain break inside a chain (a missing loop) is not a chain end here: OpenMM's createStandardBonds bonds
consecutive residues of a chain whatever the distance, and mmgbsa.py drops those long bonds (`breaks`).
Charged termini, not ACE/NME caps: the receptor says nothing of whether a chain end is the protein's end
or a cut (no SEQRES is read), and the docking preparation terminates every other chain end that way.

Geometry. OXT in the plane of CA, C and O, opposite the bisector of C→CA and C→O (trigonal carbon), at
1.25 Å (the carboxylate C–O of Engh & Huber, Acta Cryst. A 1991, 47, 392: 1.249 Å); the N-terminal
hydrogens at 1.01 Å (ff14SB's N3–H bond), tetrahedral and staggered on the N–CA bond (the amide H the
receptor had there is placed anew with them). mmgbsa.py's restrained minimisation then relaxes them.
"""

import numpy
from openmm import app, unit

OXT_BOND_ANGSTROM = 1.25
NH_BOND_ANGSTROM = 1.01


def _unit(vector):
    return vector / numpy.linalg.norm(vector)


def _bonded(topology):
    partners: dict = {}
    for bond in topology.bonds():
        partners.setdefault(bond[0], []).append(bond[1])
        partners.setdefault(bond[1], []).append(bond[0])
    return partners


def _is_hydrogen(atom) -> bool:
    return atom.element is not None and atom.element.symbol == "H"


def _oxt_position(xyz, atoms):
    c, ca, o = (xyz[atoms[name].index] for name in ("C", "CA", "O"))
    return c + OXT_BOND_ANGSTROM * _unit(-(_unit(ca - c) + _unit(o - c)))


def _placed(a, b, c, bond, angle, dihedral):
    """The point d with |cd| = bond, angle b-c-d and dihedral a-b-c-d in degrees (internal coordinates)."""
    bc = _unit(c - b)
    normal = _unit(numpy.cross(b - a, bc))
    theta, phi = numpy.radians(angle), numpy.radians(dihedral)
    local = numpy.array([-numpy.cos(theta), numpy.sin(theta) * numpy.cos(phi), numpy.sin(theta) * numpy.sin(phi)])
    return c + bond * (local[0] * bc + local[1] * numpy.cross(normal, bc) + local[2] * normal)


def _ammonium_positions(xyz, atoms, proline: bool):
    """N-terminal hydrogens, staggered on the N–CA bond (tetrahedral, 109.5° to CA): three at C–CA–N–H
    dihedrals 60°, 180° and 300°; proline's two where they complete the tetrahedron with CA and CD."""
    c, ca, n = (xyz[atoms[name].index] for name in ("C", "CA", "N"))
    if not proline:
        return [_placed(c, ca, n, NH_BOND_ANGSTROM, 109.5, dihedral) for dihedral in (60.0, 180.0, 300.0)]
    a, b = _unit(ca - n), _unit(xyz[atoms["CD"].index] - n)
    along, across = -_unit(a + b), _unit(numpy.cross(a, b))
    s = numpy.linalg.norm(a + b) / 2
    t = numpy.sqrt(max(0.0, 1 - s * s))
    return [n + NH_BOND_ANGSTROM * (s * along + sign * t * across) for sign in (1, -1)]


def _label(residue) -> str:
    return f"{residue.name} {residue.chain.id}{residue.id}{residue.insertionCode.strip()}"


def terminate_chain_ends(topology, positions):
    """The topology and positions with the missing terminal groups added, and one line per repair."""
    xyz = numpy.array(positions.value_in_unit(unit.angstrom))
    partners = _bonded(topology)
    added: dict = {}  # residue -> [(name, element, position, bonded-to atom)]
    moved: dict = {}  # existing atom -> new position
    repairs: list[str] = []
    for residue in topology.residues():
        atoms = {atom.name: atom for atom in residue.atoms()}
        if not all(name in atoms for name in ("N", "CA", "C")):
            continue
        outside = lambda atom: [p for p in partners.get(atom, []) if p.residue is not residue]  # noqa: E731
        if "O" in atoms and "OXT" not in atoms and not outside(atoms["C"]):
            added.setdefault(residue, []).append(("OXT", app.element.oxygen, _oxt_position(xyz, atoms), atoms["C"]))
            repairs.append(f"{_label(residue)}: chain end without its C-terminal group, OXT added (carboxylate)")
        n = atoms["N"]
        proline = residue.name == "PRO"
        if not outside(n) and (not proline or "CD" in atoms):
            hydrogens = [p for p in partners.get(n, []) if _is_hydrogen(p)]
            wanted = 2 if proline else 3
            if len(hydrogens) < wanted:
                # The hydrogens the docking receptor has on this N were placed for an amide (mid-chain): all
                # of them are placed anew for the ammonium, the missing ones added.
                positions_ = _ammonium_positions(xyz, atoms, proline)
                for atom, position in zip(hydrogens, positions_):
                    moved[atom] = position
                free = [f"H{k}" for k in range(1, 4) if f"H{k}" not in atoms]
                for name, position in zip(free, positions_[len(hydrogens):]):
                    added.setdefault(residue, []).append((name, app.element.hydrogen, position, n))
                repairs.append(
                    f"{_label(residue)}: chain start without its N-terminal group, "
                    f"{wanted - len(hydrogens)} H added, {len(hydrogens)} placed anew (ammonium)"
                )
    if not added and not moved:
        return topology, positions, repairs
    rebuilt = app.Topology()
    rebuilt.setPeriodicBoxVectors(topology.getPeriodicBoxVectors())
    mapping = {}
    new_xyz = []
    new_bonds = []
    for chain in topology.chains():
        new_chain = rebuilt.addChain(chain.id)
        for residue in chain.residues():
            new_residue = rebuilt.addResidue(residue.name, new_chain, residue.id, residue.insertionCode)
            for atom in residue.atoms():
                mapping[atom] = rebuilt.addAtom(atom.name, atom.element, new_residue, atom.id)
                new_xyz.append(moved.get(atom, xyz[atom.index]))
            for name, element, position, parent in added.get(residue, []):
                new_bonds.append((parent, rebuilt.addAtom(name, element, new_residue)))
                new_xyz.append(position)
    for bond in topology.bonds():
        rebuilt.addBond(mapping[bond[0]], mapping[bond[1]], bond.type, bond.order)
    for parent, atom in new_bonds:
        rebuilt.addBond(mapping[parent], atom)
    return rebuilt, unit.Quantity(numpy.array(new_xyz), unit.angstrom), repairs
