# swing.gp -- the README's spacecraft: the arm's shoulder angle and the base's yaw in reaction,
# from swing.csv (spart-sim -o csv: t is column 1, R0_1_1 2, R0_2_1 5, qm_1 14).
#   gnuplot -e "set terminal png; set output 'swing.png'" scripts/swing.gp   (a picture: the
#   gnuplot-nox of scripts/deps.sh has no window), or, with a gnuplot that has one,
#   gnuplot -p scripts/swing.gp
set datafile separator ','
set key top left
set xlabel 't (s)'
set ylabel 'arm: shoulder angle qm_1 (rad)'
set y2label 'base: yaw (degrees)'
set ytics nomirror
set y2tics
plot 'swing.csv' skip 1 using 1:14 with lines title 'arm (qm_1)', \
     '' skip 1 using 1:(atan2($5, $2) * 180 / pi) axes x1y2 with lines title 'base (yaw)'
