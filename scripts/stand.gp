# stand.gp -- the README's quadruped dropped onto the ground: its base's height over time, from
# stand.csv (spart-sim -o csv: t is column 1, r0_3 column 13), to stand.png (gnuplot-nox has
# no window: a PNG, which any viewer shows).
#   gnuplot scripts/stand.gp
set terminal png size 800,450
set output 'stand.png'
set datafile separator ','
set key top right
set xlabel 't (s)'
set ylabel 'base height (m)'
set grid
plot 'stand.csv' skip 1 using 1:13 with lines linewidth 2 title 'quadruped base (CoM) height'
