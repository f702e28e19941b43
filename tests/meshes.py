#!/usr/bin/env python3
"""meshes.py -- closed triangle meshes written as STL (ASCII or binary), OBJ or COLLADA, for the
mesh tests: python3 meshes.py SHAPE FORMAT OUT [--unit M] [--up Z_UP] [--node-scale S]
SHAPE: cube (edge 1, centred), box (0.2 x 0.3 x 0.4 at (0.1, 0.2, 0.3)), octahedron (radius
0.1), tilted (the cube of edge 0.1 turned 30 deg about x then 20 deg about y; DAE: as a node
transform), fine (the cube of edge 1, each face 4 x 4 squares: points inside its faces)."""
import math, struct, sys


def cube(h=0.5, c=(0, 0, 0), s=(1, 1, 1)):
    v = [(c[0] + (i & 1 and 1 or -1) * h * s[0], c[1] + (i & 2 and 1 or -1) * h * s[1],
          c[2] + (i & 4 and 1 or -1) * h * s[2]) for i in range(8)]
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    t = []
    for a, b, cc, d in quads:
        t += [(a, b, cc), (a, cc, d)]
    return v, t


def octahedron(r=0.1):
    v = [(r, 0, 0), (-r, 0, 0), (0, r, 0), (0, -r, 0), (0, 0, r), (0, 0, -r)]
    t = []
    for x in (0, 1):
        for y in (2, 3):
            for z in (4, 5):
                tri = (x, y, z)
                a, b, c = (v[i] for i in tri)
                n = (a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2])
                cr = ((b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
                      (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
                      (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
                t.append(tri if sum(p * q for p, q in zip(n, cr)) > 0 else (x, z, y))
    return v, t


def fine(k=4):
    """the unit cube, each face k x k squares"""
    vid, v, t = {}, [], []

    def vert(p):
        if p not in vid:
            vid[p] = len(v)
            v.append(p)
        return vid[p]
    for axis in range(3):
        for side in (-1, 1):
            u, w = (axis + 1) % 3, (axis + 2) % 3
            for i in range(k):
                for j in range(k):
                    q = []
                    for di, dj in ((0, 0), (1, 0), (1, 1), (0, 1)):
                        p = [0.0, 0.0, 0.0]
                        p[axis] = 0.5 * side
                        p[u] = -0.5 + (i + di) / k
                        p[w] = -0.5 + (j + dj) / k
                        q.append(vert(tuple(p)))
                    if side < 0:
                        q.reverse()
                    t += [(q[0], q[1], q[2]), (q[0], q[2], q[3])]
    return v, t


def rot():
    a, b = math.radians(30), math.radians(20)
    rx = [[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]]
    ry = [[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]]
    return [[sum(ry[i][k] * rx[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def apply(R, v):
    return [tuple(sum(R[i][k] * p[k] for k in range(3)) for i in range(3)) for p in v]


def write(v, t, fmt, out, unit=None, up="Z_UP", node=None):
    if fmt == "stl":
        with open(out, "w") as f:
            f.write("solid s\n")
            for tri in t:
                f.write(" facet normal 0 0 0\n  outer loop\n")
                for i in tri:
                    f.write("   vertex %.17g %.17g %.17g\n" % v[i])
                f.write("  endloop\n endfacet\n")
            f.write("endsolid s\n")
    elif fmt == "binstl":
        with open(out, "wb") as f:
            f.write(b"\0" * 80 + struct.pack("<I", len(t)))
            for tri in t:
                f.write(struct.pack("<3f", 0, 0, 0))
                for i in tri:
                    f.write(struct.pack("<3f", *v[i]))
                f.write(b"\0\0")
    elif fmt == "obj":
        with open(out, "w") as f:
            f.write("# test mesh\no s\n")
            for p in v:
                f.write("v %.17g %.17g %.17g\n" % p)
            for tri in t:
                f.write("f %d %d %d\n" % tuple(i + 1 for i in tri))
    elif fmt == "dae":
        pos = " ".join("%.17g" % x for p in v for x in p)
        idx = " ".join(str(i) for tri in t for i in tri)
        mat = "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1"
        if node:
            mat = " ".join("%.17g" % x for row in node for x in row)
        u = '<unit name="unit" meter="%s"/>' % unit if unit else ""
        with open(out, "w") as f:
            f.write(f"""<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset>{u}<up_axis>{up}</up_axis></asset>
  <library_geometries>
    <geometry id="g" name="g"><mesh>
      <source id="g-pos"><float_array id="g-pos-a" count="{3 * len(v)}">{pos}</float_array>
        <technique_common><accessor source="#g-pos-a" count="{len(v)}" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common></source>
      <vertices id="g-v"><input semantic="POSITION" source="#g-pos"/></vertices>
      <triangles count="{len(t)}"><input semantic="VERTEX" source="#g-v" offset="0"/><p>{idx}</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="s" name="s"><node id="n" name="n"><matrix sid="transform">{mat}</matrix>
      <instance_geometry url="#g"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
""")


def main(a):
    shape, fmt, out = a[0], a[1], a[2]
    opt = dict(zip(a[3::2], a[4::2]))
    node = None
    if shape == "cube":
        v, t = cube()
    elif shape == "box":
        v, t = cube(0.5, (0.1, 0.2, 0.3), (0.2, 0.3, 0.4))
    elif shape == "octahedron":
        v, t = octahedron()
    elif shape == "fine":
        v, t = fine()
    elif shape == "tilted":
        v, t = cube(0.05)
        R = rot()
        if fmt == "dae":
            node = [R[0] + [0], R[1] + [0], R[2] + [0], [0, 0, 0, 1]]
        else:
            v = apply(R, v)
    else:
        sys.exit("meshes.py: unknown shape " + shape)
    k = float(opt.get("--unit", 1))
    if k != 1:  # the file's numbers in its unit
        v = [tuple(x / k for x in p) for p in v]
        if node:
            for r in range(3):
                node[r][3] /= k
    write(v, t, fmt, out, opt.get("--unit"), opt.get("--up", "Z_UP"), node)


if __name__ == "__main__":
    main(sys.argv[1:])
