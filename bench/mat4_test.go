package bench

import "math"

// The 4×4 matrix arithmetic HeavyCompute needs, in float32 like the Rust
// suite's.

func sin(a float64) float64 { return math.Sin(a) }
func cos(a float64) float64 { return math.Cos(a) }

// Inverse returns the inverse of m, and false if m is singular. It expands
// the determinant over the 2×2 minors of the top two rows and of the bottom
// two rows.
func (m *Mat4) Inverse() (Mat4, bool) {
	s0 := m[0][0]*m[1][1] - m[1][0]*m[0][1]
	s1 := m[0][0]*m[1][2] - m[1][0]*m[0][2]
	s2 := m[0][0]*m[1][3] - m[1][0]*m[0][3]
	s3 := m[0][1]*m[1][2] - m[1][1]*m[0][2]
	s4 := m[0][1]*m[1][3] - m[1][1]*m[0][3]
	s5 := m[0][2]*m[1][3] - m[1][2]*m[0][3]

	c5 := m[2][2]*m[3][3] - m[3][2]*m[2][3]
	c4 := m[2][1]*m[3][3] - m[3][1]*m[2][3]
	c3 := m[2][1]*m[3][2] - m[3][1]*m[2][2]
	c2 := m[2][0]*m[3][3] - m[3][0]*m[2][3]
	c1 := m[2][0]*m[3][2] - m[3][0]*m[2][2]
	c0 := m[2][0]*m[3][1] - m[3][0]*m[2][1]

	det := s0*c5 - s1*c4 + s2*c3 + s3*c2 - s4*c1 + s5*c0
	if det == 0 {
		return Mat4{}, false
	}
	d := 1 / det
	return Mat4{
		{
			(m[1][1]*c5 - m[1][2]*c4 + m[1][3]*c3) * d,
			(-m[0][1]*c5 + m[0][2]*c4 - m[0][3]*c3) * d,
			(m[3][1]*s5 - m[3][2]*s4 + m[3][3]*s3) * d,
			(-m[2][1]*s5 + m[2][2]*s4 - m[2][3]*s3) * d,
		},
		{
			(-m[1][0]*c5 + m[1][2]*c2 - m[1][3]*c1) * d,
			(m[0][0]*c5 - m[0][2]*c2 + m[0][3]*c1) * d,
			(-m[3][0]*s5 + m[3][2]*s2 - m[3][3]*s1) * d,
			(m[2][0]*s5 - m[2][2]*s2 + m[2][3]*s1) * d,
		},
		{
			(m[1][0]*c4 - m[1][1]*c2 + m[1][3]*c0) * d,
			(-m[0][0]*c4 + m[0][1]*c2 - m[0][3]*c0) * d,
			(m[3][0]*s4 - m[3][1]*s2 + m[3][3]*s0) * d,
			(-m[2][0]*s4 + m[2][1]*s2 - m[2][3]*s0) * d,
		},
		{
			(-m[1][0]*c3 + m[1][1]*c1 - m[1][2]*c0) * d,
			(m[0][0]*c3 - m[0][1]*c1 + m[0][2]*c0) * d,
			(-m[3][0]*s3 + m[3][1]*s1 - m[3][2]*s0) * d,
			(m[2][0]*s3 - m[2][1]*s1 + m[2][2]*s0) * d,
		},
	}, true
}

// Mul returns the product m×n.
func (m *Mat4) Mul(n *Mat4) Mat4 {
	var p Mat4
	for r := range 4 {
		for c := range 4 {
			var s float32
			for k := range 4 {
				s += m[r][k] * n[k][c]
			}
			p[r][c] = s
		}
	}
	return p
}

// TransformVector returns m applied to the direction v (w = 0).
func (m *Mat4) TransformVector(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}
