"""codegen_trees.py -- tests/spart-codegen.bats: random trees as URDF, for the generated code
against spart's commands (tests/codegencheck.py) on models no one drew.

usage: codegen_trees.py N SEED   (writes tree0.urdf .. tree{N-1}.urdf in the current directory)

Each tree has 2 to 12 bodies, each joint on any body before it: revolute, continuous, prismatic
or fixed, about a coordinate axis (0 and 1 that the generator folds) or any other, at a random
origin and turn, now and then with damping; random masses, CoMs and inertias (positive: each
diagonal entry the sum of two of three positive numbers, small products).  In every other tree
the subtree of body 1 stands again beside it with the same joints (other numbers), so that the
generator writes two branches in pairs."""
import random
import sys


def vec(rng, k, s):
    return " ".join("%.6g" % rng.uniform(-s, s) for _ in range(k))


def axis(rng):
    if rng.random() < 0.4:
        return rng.choice(["1 0 0", "0 1 0", "0 0 1", "0 0 -1"])
    return vec(rng, 3, 1)


def link(rng, name):
    d = [rng.uniform(0.02, 0.2) for _ in range(3)]
    p = [rng.uniform(-0.01, 0.01) for _ in range(3)]
    return ('<link name="%s"><inertial><origin xyz="%s" rpy="%s"/><mass value="%.4g"/>'
            '<inertia ixx="%.4g" iyy="%.4g" izz="%.4g" ixy="%.4g" ixz="%.4g" iyz="%.4g"/>'
            '</inertial></link>\n' % (name, vec(rng, 3, 0.1), vec(rng, 3, 1),
                                      rng.uniform(0.2, 3), d[1] + d[2], d[0] + d[2],
                                      d[0] + d[1], p[0], p[1], p[2]))


def joint(rng, parent, child, kind, ax, damping):
    extra = ""
    if kind != "fixed":
        extra = '<axis xyz="%s"/>' % ax
        if kind in ("revolute", "prismatic"):
            extra += '<limit lower="-3" upper="3" effort="10" velocity="3"/>'
        if damping:
            extra += '<dynamics damping="%.3g"/>' % damping
    return ('<joint name="j_%s" type="%s"><parent link="%s"/><child link="%s"/>'
            '<origin xyz="%s" rpy="%s"/>%s</joint>\n'
            % (child, kind, parent, child, vec(rng, 3, 0.3), vec(rng, 3, 1.5), extra))


def tree(rng, t):
    nb = rng.randint(2, 12)
    parent, jnt = [None], [None]
    for i in range(1, nb):
        parent.append(rng.randrange(i))
        jnt.append((rng.choice(["revolute", "continuous", "prismatic", "revolute", "fixed"]),
                    axis(rng), rng.choice([0, 0, 0.1])))
    if t % 2 == 1:
        # body 1's subtree (each body after it whose parent is in it), again beside it
        sub = [1]
        for i in range(2, nb):
            if parent[i] in sub:
                sub.append(i)
        copy = {}
        for i in sub:
            copy[i] = len(parent)
            parent.append(parent[1] if i == 1 else copy[parent[i]])
            jnt.append(jnt[i])
    text = '<?xml version="1.0"?>\n<robot name="tree%d">\n' % t
    for i in range(len(parent)):
        text += link(rng, "b%d" % i)
        if parent[i] is not None:
            text += joint(rng, "b%d" % parent[i], "b%d" % i, *jnt[i])
    return text + "</robot>\n"


def main():
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for t in range(n):
        with open("tree%d.urdf" % t, "w") as f:
            f.write(tree(rng, t))


main()
